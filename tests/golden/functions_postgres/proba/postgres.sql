-- sqlnb_proba(model, text): the posterior probability of sqlnb_classify's label (built and safe
-- as classify.sql.in says).
CREATE OR REPLACE FUNCTION "public".sqlnb_proba(sqlnb_model TEXT, sqlnb_text TEXT)
RETURNS DOUBLE PRECISION
LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp AS $sqlnb$
BEGIN
IF sqlnb_model IN ('mail') THEN RETURN (
  SELECT
    o.proba
  FROM (
    SELECT
      MAX(CAST(q.label AS VARCHAR)) AS label,
      MAX(q.proba) AS proba
    FROM (
      WITH sqlnb_input AS (
        SELECT
          g.doc_id AS doc_id,
          g.word AS word,
          CAST(1 AS DOUBLE PRECISION) AS count
        FROM (
          SELECT
            m.doc_id AS doc_id,
            m.token AS word
          FROM (
            SELECT
              s.doc_id AS doc_id,
              m.match[1] AS token,
              m.pos AS pos
            FROM (
              SELECT
                "doc_id" AS doc_id,
                LOWER("text") AS text
              FROM (
                SELECT
                  1 AS doc_id,
                  sqlnb_text AS text
              ) AS x
            ) AS s
            CROSS JOIN LATERAL REGEXP_MATCHES(
              s.text,
              '[A-Za-zªµºÀ-ÖØ-öø-ˁˆ-ˑˠ-ˤˬˮͰ-ʹͶ-ͷͺ-ͽͿΆΈ-ΊΌΎ-ΡΣ-ϵϷ-ҁҊ-ԯԱ-Ֆՙՠ-ֈא-תׯ-ײؠ-يٮ-ٯٱ-ۓەۥ-ۦۮ-ۯۺ-ۼۿܐܒ-ܯݍ-ޥޱߊ-ߪߴ-ߵߺࠀ-ࠕࠚࠤࠨࡀ-ࡘࡠ-ࡪࡰ-ࢇࢉ-ࢎࢠ-ࣉऄ-हऽॐक़-ॡॱ-ঀঅ-ঌএ-ঐও-নপ-রলশ-হঽৎড়-ঢ়য়-ৡৰ-ৱৼਅ-ਊਏ-ਐਓ-ਨਪ-ਰਲ-ਲ਼ਵ-ਸ਼ਸ-ਹਖ਼-ੜਫ਼ੲ-ੴઅ-ઍએ-ઑઓ-નપ-રલ-ળવ-હઽૐૠ-ૡૹଅ-ଌଏ-ଐଓ-ନପ-ରଲ-ଳଵ-ହଽଡ଼-ଢ଼ୟ-ୡୱஃஅ-ஊஎ-ஐஒ-கங-சஜஞ-டண-தந-பம-ஹௐఅ-ఌఎ-ఐఒ-నప-హఽౘ-ౚౝౠ-ౡಀಅ-ಌಎ-ಐಒ-ನಪ-ಳವ-ಹಽೝ-ೞೠ-ೡೱ-ೲഄ-ഌഎ-ഐഒ-ഺഽൎൔ-ൖൟ-ൡൺ-ൿඅ-ඖක-නඳ-රලව-ෆก-ะา-ำเ-ๆກ-ຂຄຆ-ຊຌ-ຣລວ-ະາ-ຳຽເ-ໄໆໜ-ໟༀཀ-ཇཉ-ཬྈ-ྌက-ဪဿၐ-ၕၚ-ၝၡၥ-ၦၮ-ၰၵ-ႁႎႠ-ჅჇჍა-ჺჼ-ቈቊ-ቍቐ-ቖቘቚ-ቝበ-ኈኊ-ኍነ-ኰኲ-ኵኸ-ኾዀዂ-ዅወ-ዖዘ-ጐጒ-ጕጘ-ፚᎀ-ᎏᎠ-Ᏽᏸ-ᏽᐁ-ᙬᙯ-ᙿᚁ-ᚚᚠ-ᛪᛱ-ᛸᜀ-ᜑᜟ-ᜱᝀ-ᝑᝠ-ᝬᝮ-ᝰក-ឳៗៜᠠ-ᡸᢀ-ᢄᢇ-ᢨᢪᢰ-ᣵᤀ-ᤞᥐ-ᥭᥰ-ᥴᦀ-ᦫᦰ-ᧉᨀ-ᨖᨠ-ᩔᪧᬅ-ᬳᭅ-ᭌᮃ-ᮠᮮ-ᮯᮺ-ᯥᰀ-ᰣᱍ-ᱏᱚ-ᱽᲀ-ᲈᲐ-ᲺᲽ-Ჿᳩ-ᳬᳮ-ᳳᳵ-ᳶᳺᴀ-ᶿḀ-ἕἘ-Ἕἠ-ὅὈ-Ὅὐ-ὗὙὛὝὟ-ώᾀ-ᾴᾶ-ᾼιῂ-ῄῆ-ῌῐ-ΐῖ-Ίῠ-Ῥῲ-ῴῶ-ῼⁱⁿₐ-ₜℂℇℊ-ℓℕℙ-ℝℤΩℨK-ℭℯ-ℹℼ-ℿⅅ-ⅉⅎↃ-ↄⰀ-ⳤⳫ-ⳮⳲ-ⳳⴀ-ⴥⴧⴭⴰ-ⵧⵯⶀ-ⶖⶠ-ⶦⶨ-ⶮⶰ-ⶶⶸ-ⶾⷀ-ⷆⷈ-ⷎⷐ-ⷖⷘ-ⷞⸯ々-〆〱-〵〻-〼ぁ-ゖゝ-ゟァ-ヺー-ヿㄅ-ㄯㄱ-ㆎㆠ-ㆿㇰ-ㇿ㐀-䶿一-ꒌꓐ-ꓽꔀ-ꘌꘐ-ꘟꘪ-ꘫꙀ-ꙮꙿ-ꚝꚠ-ꛥꜗ-ꜟꜢ-ꞈꞋ-ꟊꟐ-ꟑꟓꟕ-ꟙꟲ-ꠁꠃ-ꠅꠇ-ꠊꠌ-ꠢꡀ-ꡳꢂ-ꢳꣲ-ꣷꣻꣽ-ꣾꤊ-ꤥꤰ-ꥆꥠ-ꥼꦄ-ꦲꧏꧠ-ꧤꧦ-ꧯꧺ-ꧾꨀ-ꨨꩀ-ꩂꩄ-ꩋꩠ-ꩶꩺꩾ-ꪯꪱꪵ-ꪶꪹ-ꪽꫀꫂꫛ-ꫝꫠ-ꫪꫲ-ꫴꬁ-ꬆꬉ-ꬎꬑ-ꬖꬠ-ꬦꬨ-ꬮꬰ-ꭚꭜ-ꭩꭰ-ꯢ가-힣ힰ-ퟆퟋ-ퟻ豈-舘並-龎ﬀ-ﬆﬓ-ﬗיִײַ-ﬨשׁ-זּטּ-לּמּנּ-סּףּ-פּצּ-ﮱﯓ-ﴽﵐ-ﶏﶒ-ﷇﷰ-ﷻﹰ-ﹴﹶ-ﻼＡ-Ｚａ-ｚｦ-ﾾￂ-ￇￊ-ￏￒ-ￗￚ-ￜ𐀀-𐀋𐀍-𐀦𐀨-𐀺𐀼-𐀽𐀿-𐁍𐁐-𐁝𐂀-𐃺𐊀-𐊜𐊠-𐋐𐌀-𐌟𐌭-𐍀𐍂-𐍉𐍐-𐍵𐎀-𐎝𐎠-𐏃𐏈-𐏏𐐀-𐒝𐒰-𐓓𐓘-𐓻𐔀-𐔧𐔰-𐕣𐕰-𐕺𐕼-𐖊𐖌-𐖒𐖔-𐖕𐖗-𐖡𐖣-𐖱𐖳-𐖹𐖻-𐖼𐘀-𐜶𐝀-𐝕𐝠-𐝧𐞀-𐞅𐞇-𐞰𐞲-𐞺𐠀-𐠅𐠈𐠊-𐠵𐠷-𐠸𐠼𐠿-𐡕𐡠-𐡶𐢀-𐢞𐣠-𐣲𐣴-𐣵𐤀-𐤕𐤠-𐤹𐦀-𐦷𐦾-𐦿𐨀𐨐-𐨓𐨕-𐨗𐨙-𐨵𐩠-𐩼𐪀-𐪜𐫀-𐫇𐫉-𐫤𐬀-𐬵𐭀-𐭕𐭠-𐭲𐮀-𐮑𐰀-𐱈𐲀-𐲲𐳀-𐳲𐴀-𐴣𐺀-𐺩𐺰-𐺱𐼀-𐼜𐼧𐼰-𐽅𐽰-𐾁𐾰-𐿄𐿠-𐿶𑀃-𑀷𑁱-𑁲𑁵𑂃-𑂯𑃐-𑃨𑄃-𑄦𑅄𑅇𑅐-𑅲𑅶𑆃-𑆲𑇁-𑇄𑇚𑇜𑈀-𑈑𑈓-𑈫𑈿-𑉀𑊀-𑊆𑊈𑊊-𑊍𑊏-𑊝𑊟-𑊨𑊰-𑋞𑌅-𑌌𑌏-𑌐𑌓-𑌨𑌪-𑌰𑌲-𑌳𑌵-𑌹𑌽𑍐𑍝-𑍡𑐀-𑐴𑑇-𑑊𑑟-𑑡𑒀-𑒯𑓄-𑓅𑓇𑖀-𑖮𑗘-𑗛𑘀-𑘯𑙄𑚀-𑚪𑚸𑜀-𑜚𑝀-𑝆𑠀-𑠫𑢠-𑣟𑣿-𑤆𑤉𑤌-𑤓𑤕-𑤖𑤘-𑤯𑤿𑥁𑦠-𑦧𑦪-𑧐𑧡𑧣𑨀𑨋-𑨲𑨺𑩐𑩜-𑪉𑪝𑪰-𑫸𑰀-𑰈𑰊-𑰮𑱀𑱲-𑲏𑴀-𑴆𑴈-𑴉𑴋-𑴰𑵆𑵠-𑵥𑵧-𑵨𑵪-𑶉𑶘𑻠-𑻲𑼂𑼄-𑼐𑼒-𑼳𑾰𒀀-𒎙𒒀-𒕃𒾐-𒿰𓀀-𓐯𓑁-𓑆𔐀-𔙆𖠀-𖨸𖩀-𖩞𖩰-𖪾𖫐-𖫭𖬀-𖬯𖭀-𖭃𖭣-𖭷𖭽-𖮏𖹀-𖹿𖼀-𖽊𖽐𖾓-𖾟𖿠-𖿡𖿣𗀀-𘟷𘠀-𘳕𘴀-𘴈𚿰-𚿳𚿵-𚿻𚿽-𚿾𛀀-𛄢𛄲𛅐-𛅒𛅕𛅤-𛅧𛅰-𛋻𛰀-𛱪𛱰-𛱼𛲀-𛲈𛲐-𛲙𝐀-𝑔𝑖-𝒜𝒞-𝒟𝒢𝒥-𝒦𝒩-𝒬𝒮-𝒹𝒻𝒽-𝓃𝓅-𝔅𝔇-𝔊𝔍-𝔔𝔖-𝔜𝔞-𝔹𝔻-𝔾𝕀-𝕄𝕆𝕊-𝕐𝕒-𝚥𝚨-𝛀𝛂-𝛚𝛜-𝛺𝛼-𝜔𝜖-𝜴𝜶-𝝎𝝐-𝝮𝝰-𝞈𝞊-𝞨𝞪-𝟂𝟄-𝟋𝼀-𝼞𝼥-𝼪𞀰-𞁭𞄀-𞄬𞄷-𞄽𞅎𞊐-𞊭𞋀-𞋫𞓐-𞓫𞟠-𞟦𞟨-𞟫𞟭-𞟮𞟰-𞟾𞠀-𞣄𞤀-𞥃𞥋𞸀-𞸃𞸅-𞸟𞸡-𞸢𞸤𞸧𞸩-𞸲𞸴-𞸷𞸹𞸻𞹂𞹇𞹉𞹋𞹍-𞹏𞹑-𞹒𞹔𞹗𞹙𞹛𞹝𞹟𞹡-𞹢𞹤𞹧-𞹪𞹬-𞹲𞹴-𞹷𞹹-𞹼𞹾𞺀-𞺉𞺋-𞺛𞺡-𞺣𞺥-𞺩𞺫-𞺻𠀀-𪛟𪜀-𫜹𫝀-𫠝𫠠-𬺡𬺰-𮯠丽-𪘀𰀀-𱍊𱍐-𲎯0-9²-³¹¼-¾٠-٩۰-۹߀-߉०-९০-৯৴-৹੦-੯૦-૯୦-୯୲-୷௦-௲౦-౯౸-౾೦-೯൘-൞൦-൸෦-෯๐-๙໐-໙༠-༳၀-၉႐-႙፩-፼ᛮ-ᛰ០-៩៰-៹᠐-᠙᥆-᥏᧐-᧚᪀-᪉᪐-᪙᭐-᭙᮰-᮹᱀-᱉᱐-᱙⁰⁴-⁹₀-₉⅐-ↂↅ-↉①-⒛⓪-⓿❶-➓⳽〇〡-〩〸-〺㆒-㆕㈠-㈩㉈-㉏㉑-㉟㊀-㊉㊱-㊿꘠-꘩ꛦ-ꛯ꠰-꠵꣐-꣙꤀-꤉꧐-꧙꧰-꧹꩐-꩙꯰-꯹０-９𐄇-𐄳𐅀-𐅸𐆊-𐆋𐋡-𐋻𐌠-𐌣𐍁𐍊𐏑-𐏕𐒠-𐒩𐡘-𐡟𐡹-𐡿𐢧-𐢯𐣻-𐣿𐤖-𐤛𐦼-𐦽𐧀-𐧏𐧒-𐧿𐩀-𐩈𐩽-𐩾𐪝-𐪟𐫫-𐫯𐭘-𐭟𐭸-𐭿𐮩-𐮯𐳺-𐳿𐴰-𐴹𐹠-𐹾𐼝-𐼦𐽑-𐽔𐿅-𐿋𑁒-𑁯𑃰-𑃹𑄶-𑄿𑇐-𑇙𑇡-𑇴𑋰-𑋹𑑐-𑑙𑓐-𑓙𑙐-𑙙𑛀-𑛉𑜰-𑜻𑣠-𑣲𑥐-𑥙𑱐-𑱬𑵐-𑵙𑶠-𑶩𑽐-𑽙𑿀-𑿔𒐀-𒑮𖩠-𖩩𖫀-𖫉𖭐-𖭙𖭛-𖭡𖺀-𖺖𝋀-𝋓𝋠-𝋳𝍠-𝍸𝟎-𝟿𞅀-𞅉𞋰-𞋹𞓰-𞓹𞣇-𞣏𞥐-𞥙𞱱-𞲫𞲭-𞲯𞲱-𞲴𞴁-𞴭𞴯-𞴽🄀-🄌🯰-🯹]+(?:''[A-Za-zªµºÀ-ÖØ-öø-ˁˆ-ˑˠ-ˤˬˮͰ-ʹͶ-ͷͺ-ͽͿΆΈ-ΊΌΎ-ΡΣ-ϵϷ-ҁҊ-ԯԱ-Ֆՙՠ-ֈא-תׯ-ײؠ-يٮ-ٯٱ-ۓەۥ-ۦۮ-ۯۺ-ۼۿܐܒ-ܯݍ-ޥޱߊ-ߪߴ-ߵߺࠀ-ࠕࠚࠤࠨࡀ-ࡘࡠ-ࡪࡰ-ࢇࢉ-ࢎࢠ-ࣉऄ-हऽॐक़-ॡॱ-ঀঅ-ঌএ-ঐও-নপ-রলশ-হঽৎড়-ঢ়য়-ৡৰ-ৱৼਅ-ਊਏ-ਐਓ-ਨਪ-ਰਲ-ਲ਼ਵ-ਸ਼ਸ-ਹਖ਼-ੜਫ਼ੲ-ੴઅ-ઍએ-ઑઓ-નપ-રલ-ળવ-હઽૐૠ-ૡૹଅ-ଌଏ-ଐଓ-ନପ-ରଲ-ଳଵ-ହଽଡ଼-ଢ଼ୟ-ୡୱஃஅ-ஊஎ-ஐஒ-கங-சஜஞ-டண-தந-பம-ஹௐఅ-ఌఎ-ఐఒ-నప-హఽౘ-ౚౝౠ-ౡಀಅ-ಌಎ-ಐಒ-ನಪ-ಳವ-ಹಽೝ-ೞೠ-ೡೱ-ೲഄ-ഌഎ-ഐഒ-ഺഽൎൔ-ൖൟ-ൡൺ-ൿඅ-ඖක-නඳ-රලව-ෆก-ะา-ำเ-ๆກ-ຂຄຆ-ຊຌ-ຣລວ-ະາ-ຳຽເ-ໄໆໜ-ໟༀཀ-ཇཉ-ཬྈ-ྌက-ဪဿၐ-ၕၚ-ၝၡၥ-ၦၮ-ၰၵ-ႁႎႠ-ჅჇჍა-ჺჼ-ቈቊ-ቍቐ-ቖቘቚ-ቝበ-ኈኊ-ኍነ-ኰኲ-ኵኸ-ኾዀዂ-ዅወ-ዖዘ-ጐጒ-ጕጘ-ፚᎀ-ᎏᎠ-Ᏽᏸ-ᏽᐁ-ᙬᙯ-ᙿᚁ-ᚚᚠ-ᛪᛱ-ᛸᜀ-ᜑᜟ-ᜱᝀ-ᝑᝠ-ᝬᝮ-ᝰក-ឳៗៜᠠ-ᡸᢀ-ᢄᢇ-ᢨᢪᢰ-ᣵᤀ-ᤞᥐ-ᥭᥰ-ᥴᦀ-ᦫᦰ-ᧉᨀ-ᨖᨠ-ᩔᪧᬅ-ᬳᭅ-ᭌᮃ-ᮠᮮ-ᮯᮺ-ᯥᰀ-ᰣᱍ-ᱏᱚ-ᱽᲀ-ᲈᲐ-ᲺᲽ-Ჿᳩ-ᳬᳮ-ᳳᳵ-ᳶᳺᴀ-ᶿḀ-ἕἘ-Ἕἠ-ὅὈ-Ὅὐ-ὗὙὛὝὟ-ώᾀ-ᾴᾶ-ᾼιῂ-ῄῆ-ῌῐ-ΐῖ-Ίῠ-Ῥῲ-ῴῶ-ῼⁱⁿₐ-ₜℂℇℊ-ℓℕℙ-ℝℤΩℨK-ℭℯ-ℹℼ-ℿⅅ-ⅉⅎↃ-ↄⰀ-ⳤⳫ-ⳮⳲ-ⳳⴀ-ⴥⴧⴭⴰ-ⵧⵯⶀ-ⶖⶠ-ⶦⶨ-ⶮⶰ-ⶶⶸ-ⶾⷀ-ⷆⷈ-ⷎⷐ-ⷖⷘ-ⷞⸯ々-〆〱-〵〻-〼ぁ-ゖゝ-ゟァ-ヺー-ヿㄅ-ㄯㄱ-ㆎㆠ-ㆿㇰ-ㇿ㐀-䶿一-ꒌꓐ-ꓽꔀ-ꘌꘐ-ꘟꘪ-ꘫꙀ-ꙮꙿ-ꚝꚠ-ꛥꜗ-ꜟꜢ-ꞈꞋ-ꟊꟐ-ꟑꟓꟕ-ꟙꟲ-ꠁꠃ-ꠅꠇ-ꠊꠌ-ꠢꡀ-ꡳꢂ-ꢳꣲ-ꣷꣻꣽ-ꣾꤊ-ꤥꤰ-ꥆꥠ-ꥼꦄ-ꦲꧏꧠ-ꧤꧦ-ꧯꧺ-ꧾꨀ-ꨨꩀ-ꩂꩄ-ꩋꩠ-ꩶꩺꩾ-ꪯꪱꪵ-ꪶꪹ-ꪽꫀꫂꫛ-ꫝꫠ-ꫪꫲ-ꫴꬁ-ꬆꬉ-ꬎꬑ-ꬖꬠ-ꬦꬨ-ꬮꬰ-ꭚꭜ-ꭩꭰ-ꯢ가-힣ힰ-ퟆퟋ-ퟻ豈-舘並-龎ﬀ-ﬆﬓ-ﬗיִײַ-ﬨשׁ-זּטּ-לּמּנּ-סּףּ-פּצּ-ﮱﯓ-ﴽﵐ-ﶏﶒ-ﷇﷰ-ﷻﹰ-ﹴﹶ-ﻼＡ-Ｚａ-ｚｦ-ﾾￂ-ￇￊ-ￏￒ-ￗￚ-ￜ𐀀-𐀋𐀍-𐀦𐀨-𐀺𐀼-𐀽𐀿-𐁍𐁐-𐁝𐂀-𐃺𐊀-𐊜𐊠-𐋐𐌀-𐌟𐌭-𐍀𐍂-𐍉𐍐-𐍵𐎀-𐎝𐎠-𐏃𐏈-𐏏𐐀-𐒝𐒰-𐓓𐓘-𐓻𐔀-𐔧𐔰-𐕣𐕰-𐕺𐕼-𐖊𐖌-𐖒𐖔-𐖕𐖗-𐖡𐖣-𐖱𐖳-𐖹𐖻-𐖼𐘀-𐜶𐝀-𐝕𐝠-𐝧𐞀-𐞅𐞇-𐞰𐞲-𐞺𐠀-𐠅𐠈𐠊-𐠵𐠷-𐠸𐠼𐠿-𐡕𐡠-𐡶𐢀-𐢞𐣠-𐣲𐣴-𐣵𐤀-𐤕𐤠-𐤹𐦀-𐦷𐦾-𐦿𐨀𐨐-𐨓𐨕-𐨗𐨙-𐨵𐩠-𐩼𐪀-𐪜𐫀-𐫇𐫉-𐫤𐬀-𐬵𐭀-𐭕𐭠-𐭲𐮀-𐮑𐰀-𐱈𐲀-𐲲𐳀-𐳲𐴀-𐴣𐺀-𐺩𐺰-𐺱𐼀-𐼜𐼧𐼰-𐽅𐽰-𐾁𐾰-𐿄𐿠-𐿶𑀃-𑀷𑁱-𑁲𑁵𑂃-𑂯𑃐-𑃨𑄃-𑄦𑅄𑅇𑅐-𑅲𑅶𑆃-𑆲𑇁-𑇄𑇚𑇜𑈀-𑈑𑈓-𑈫𑈿-𑉀𑊀-𑊆𑊈𑊊-𑊍𑊏-𑊝𑊟-𑊨𑊰-𑋞𑌅-𑌌𑌏-𑌐𑌓-𑌨𑌪-𑌰𑌲-𑌳𑌵-𑌹𑌽𑍐𑍝-𑍡𑐀-𑐴𑑇-𑑊𑑟-𑑡𑒀-𑒯𑓄-𑓅𑓇𑖀-𑖮𑗘-𑗛𑘀-𑘯𑙄𑚀-𑚪𑚸𑜀-𑜚𑝀-𑝆𑠀-𑠫𑢠-𑣟𑣿-𑤆𑤉𑤌-𑤓𑤕-𑤖𑤘-𑤯𑤿𑥁𑦠-𑦧𑦪-𑧐𑧡𑧣𑨀𑨋-𑨲𑨺𑩐𑩜-𑪉𑪝𑪰-𑫸𑰀-𑰈𑰊-𑰮𑱀𑱲-𑲏𑴀-𑴆𑴈-𑴉𑴋-𑴰𑵆𑵠-𑵥𑵧-𑵨𑵪-𑶉𑶘𑻠-𑻲𑼂𑼄-𑼐𑼒-𑼳𑾰𒀀-𒎙𒒀-𒕃𒾐-𒿰𓀀-𓐯𓑁-𓑆𔐀-𔙆𖠀-𖨸𖩀-𖩞𖩰-𖪾𖫐-𖫭𖬀-𖬯𖭀-𖭃𖭣-𖭷𖭽-𖮏𖹀-𖹿𖼀-𖽊𖽐𖾓-𖾟𖿠-𖿡𖿣𗀀-𘟷𘠀-𘳕𘴀-𘴈𚿰-𚿳𚿵-𚿻𚿽-𚿾𛀀-𛄢𛄲𛅐-𛅒𛅕𛅤-𛅧𛅰-𛋻𛰀-𛱪𛱰-𛱼𛲀-𛲈𛲐-𛲙𝐀-𝑔𝑖-𝒜𝒞-𝒟𝒢𝒥-𝒦𝒩-𝒬𝒮-𝒹𝒻𝒽-𝓃𝓅-𝔅𝔇-𝔊𝔍-𝔔𝔖-𝔜𝔞-𝔹𝔻-𝔾𝕀-𝕄𝕆𝕊-𝕐𝕒-𝚥𝚨-𝛀𝛂-𝛚𝛜-𝛺𝛼-𝜔𝜖-𝜴𝜶-𝝎𝝐-𝝮𝝰-𝞈𝞊-𝞨𝞪-𝟂𝟄-𝟋𝼀-𝼞𝼥-𝼪𞀰-𞁭𞄀-𞄬𞄷-𞄽𞅎𞊐-𞊭𞋀-𞋫𞓐-𞓫𞟠-𞟦𞟨-𞟫𞟭-𞟮𞟰-𞟾𞠀-𞣄𞤀-𞥃𞥋𞸀-𞸃𞸅-𞸟𞸡-𞸢𞸤𞸧𞸩-𞸲𞸴-𞸷𞸹𞸻𞹂𞹇𞹉𞹋𞹍-𞹏𞹑-𞹒𞹔𞹗𞹙𞹛𞹝𞹟𞹡-𞹢𞹤𞹧-𞹪𞹬-𞹲𞹴-𞹷𞹹-𞹼𞹾𞺀-𞺉𞺋-𞺛𞺡-𞺣𞺥-𞺩𞺫-𞺻𠀀-𪛟𪜀-𫜹𫝀-𫠝𫠠-𬺡𬺰-𮯠丽-𪘀𰀀-𱍊𱍐-𲎯0-9²-³¹¼-¾٠-٩۰-۹߀-߉०-९০-৯৴-৹੦-੯૦-૯୦-୯୲-୷௦-௲౦-౯౸-౾೦-೯൘-൞൦-൸෦-෯๐-๙໐-໙༠-༳၀-၉႐-႙፩-፼ᛮ-ᛰ០-៩៰-៹᠐-᠙᥆-᥏᧐-᧚᪀-᪉᪐-᪙᭐-᭙᮰-᮹᱀-᱉᱐-᱙⁰⁴-⁹₀-₉⅐-ↂↅ-↉①-⒛⓪-⓿❶-➓⳽〇〡-〩〸-〺㆒-㆕㈠-㈩㉈-㉏㉑-㉟㊀-㊉㊱-㊿꘠-꘩ꛦ-ꛯ꠰-꠵꣐-꣙꤀-꤉꧐-꧙꧰-꧹꩐-꩙꯰-꯹０-９𐄇-𐄳𐅀-𐅸𐆊-𐆋𐋡-𐋻𐌠-𐌣𐍁𐍊𐏑-𐏕𐒠-𐒩𐡘-𐡟𐡹-𐡿𐢧-𐢯𐣻-𐣿𐤖-𐤛𐦼-𐦽𐧀-𐧏𐧒-𐧿𐩀-𐩈𐩽-𐩾𐪝-𐪟𐫫-𐫯𐭘-𐭟𐭸-𐭿𐮩-𐮯𐳺-𐳿𐴰-𐴹𐹠-𐹾𐼝-𐼦𐽑-𐽔𐿅-𐿋𑁒-𑁯𑃰-𑃹𑄶-𑄿𑇐-𑇙𑇡-𑇴𑋰-𑋹𑑐-𑑙𑓐-𑓙𑙐-𑙙𑛀-𑛉𑜰-𑜻𑣠-𑣲𑥐-𑥙𑱐-𑱬𑵐-𑵙𑶠-𑶩𑽐-𑽙𑿀-𑿔𒐀-𒑮𖩠-𖩩𖫀-𖫉𖭐-𖭙𖭛-𖭡𖺀-𖺖𝋀-𝋓𝋠-𝋳𝍠-𝍸𝟎-𝟿𞅀-𞅉𞋰-𞋹𞓰-𞓹𞣇-𞣏𞥐-𞥙𞱱-𞲫𞲭-𞲯𞲱-𞲴𞴁-𞴭𞴯-𞴽🄀-🄌🯰-🯹]+)*',
              'g'
            ) WITH ORDINALITY AS m(match, pos)
          ) AS m
          WHERE
            m.token <> '' AND TRUE
        ) AS g
      ), sqlnb_documents AS (
        SELECT
          1 AS doc_id
      ), sqlnb_jll AS (
        SELECT
          j.doc_id AS doc_id,
          j.class_id AS class_id,
          CASE WHEN j.base IS NULL OR j.n_zero > 0 THEN NULL ELSE j.base + j.score END AS jll
        FROM (
          SELECT
            u.doc_id AS doc_id,
            u.class_id AS class_id,
            MAX(u.base) AS base,
            SUM(u.n_zero) AS n_zero,
            SUM(u.score) AS score
          FROM (
            SELECT
              d.doc_id AS doc_id,
              b.class_id AS class_id,
              b.score AS base,
              CAST(b.n_zero AS BIGINT) AS n_zero,
              CAST(0 AS DOUBLE PRECISION) AS score,
              1 AS listed
            FROM sqlnb_documents AS d
            CROSS JOIN (
              SELECT
                b.class_id AS class_id,
                b.score AS score,
                b.n_zero AS n_zero
              FROM "public".sqlnb_base AS b
              WHERE
                b.model = sqlnb_model
            ) AS b
            UNION ALL
            SELECT
              s.doc_id AS doc_id,
              s.class_id AS class_id,
              CAST(NULL AS DOUBLE PRECISION) AS base,
              CAST(s.n_zero AS BIGINT) AS n_zero,
              s.score AS score,
              0 AS listed
            FROM (
              SELECT
                s.doc_id AS doc_id,
                c.class_id AS class_id,
                CASE c.class_id % 8
                  WHEN 0
                  THEN s.w0
                  WHEN 1
                  THEN s.w1
                  WHEN 2
                  THEN s.w2
                  WHEN 3
                  THEN s.w3
                  WHEN 4
                  THEN s.w4
                  WHEN 5
                  THEN s.w5
                  WHEN 6
                  THEN s.w6
                  WHEN 7
                  THEN s.w7
                END AS score,
                0 AS n_zero
              FROM (
                SELECT
                  t.doc_id AS doc_id,
                  s.base AS base,
                  SUM(t.count * s.w0) AS w0,
                  SUM(t.count * s.w1) AS w1,
                  SUM(t.count * s.w2) AS w2,
                  SUM(t.count * s.w3) AS w3,
                  SUM(t.count * s.w4) AS w4,
                  SUM(t.count * s.w5) AS w5,
                  SUM(t.count * s.w6) AS w6,
                  SUM(t.count * s.w7) AS w7
                FROM (
                  SELECT
                    t.doc_id AS doc_id,
                    t.word AS word,
                    t.count AS count
                  FROM sqlnb_input AS t
                  WHERE
                    t.count > 0
                ) AS t
                JOIN "public"."sqlnb_scoring" AS s
                  ON s.word = t.word AND s.model || ' ' || s.word = sqlnb_model || ' ' || t.word
                WHERE
                  s.model = sqlnb_model
                GROUP BY
                  t.doc_id,
                  s.base
              ) AS s
              JOIN "public".sqlnb_classes AS c
                ON c.class_id - c.class_id % 8 = s.base
              WHERE
                c.model = sqlnb_model
            ) AS s
          ) AS u
          GROUP BY
            u.doc_id,
            u.class_id
          HAVING
            MAX(u.listed) = 1
        ) AS j
      ), sqlnb_posterior AS (
        SELECT
          b.doc_id AS doc_id,
          b.class_id AS class_id,
          b.jll AS jll,
          b.jll - (
            b.top + LN(CASE WHEN b.total > 0 THEN b.total END)
          ) AS log_proba,
          CASE
            WHEN b.top IS NULL
            THEN NULL
            WHEN b.jll IS NULL
            THEN CAST(0 AS DOUBLE PRECISION)
            WHEN b.jll - (
              b.top + LN(b.total)
            ) < -700
            THEN CAST(0 AS DOUBLE PRECISION)
            ELSE EXP(b.jll - (
              b.top + LN(b.total)
            ))
          END AS proba,
          ROW_NUMBER() OVER (
            PARTITION BY b.doc_id
            ORDER BY CASE WHEN b.jll IS NULL THEN 1 ELSE 0 END, b.jll DESC NULLS LAST, b.class_id
          ) AS rn
        FROM (
          SELECT
            a.doc_id AS doc_id,
            a.class_id AS class_id,
            a.jll AS jll,
            a.top AS top,
            SUM(
              CASE WHEN a.jll IS NULL OR a.jll - a.top < -700 THEN 0 ELSE EXP(a.jll - a.top) END
            ) OVER (PARTITION BY a.doc_id) AS total
          FROM (
            SELECT
              j.doc_id AS doc_id,
              j.class_id AS class_id,
              j.jll AS jll,
              MAX(j.jll) OVER (PARTITION BY j.doc_id) AS top
            FROM sqlnb_jll AS j
          ) AS a
        ) AS b
      )
      SELECT
        p.doc_id AS doc_id,
        c.label AS label,
        p.proba AS proba
      FROM sqlnb_posterior AS p
      JOIN (
        SELECT
          class_id,
          label
        FROM "public".sqlnb_classes
        WHERE
          model = sqlnb_model
      ) AS c
        ON c.class_id = p.class_id
      WHERE
        p.rn = 1
    ) AS q
  ) AS o
); END IF;
RETURN CASE
  WHEN sqlnb_model IS NULL
  THEN CAST("public".sqlnb_raise('the model name is NULL') AS DOUBLE PRECISION)
  WHEN NOT EXISTS(
    SELECT
      1
    FROM "public".sqlnb_models AS m
    WHERE
      m.model = sqlnb_model
  )
  THEN CAST("public".sqlnb_raise('no model named ''' || sqlnb_model || ''' in this database') AS DOUBLE PRECISION)
  WHEN NOT EXISTS(
    SELECT
      1
    FROM "public"."sqlnb_tokenizers" AS n
    WHERE
      n.model = sqlnb_model
  )
  THEN CAST("public".sqlnb_raise(
    'model ''' || sqlnb_model || ''' ' || 'has no tokenizer (it was not trained from text): classify its tokens with sqlnb_predict'
  ) AS DOUBLE PRECISION)
  ELSE (
    (
      SELECT
        MAX(q.proba)
      FROM (
        WITH sqlnb_input AS (
          SELECT
            g.doc_id AS doc_id,
            g.word AS word,
            CAST(1 AS DOUBLE PRECISION) AS count
          FROM (
            SELECT
              m.doc_id AS doc_id,
              m.token AS word
            FROM (
              SELECT
                s.doc_id AS doc_id,
                m.match[1] AS token,
                m.pos AS pos
              FROM (
                SELECT
                  "doc_id" AS doc_id,
                  LOWER("text") AS text
                FROM (
                  SELECT
                    1 AS doc_id,
                    sqlnb_text AS text
                ) AS x
              ) AS s
              CROSS JOIN LATERAL REGEXP_MATCHES(
                s.text,
                '[A-Za-zªµºÀ-ÖØ-öø-ˁˆ-ˑˠ-ˤˬˮͰ-ʹͶ-ͷͺ-ͽͿΆΈ-ΊΌΎ-ΡΣ-ϵϷ-ҁҊ-ԯԱ-Ֆՙՠ-ֈא-תׯ-ײؠ-يٮ-ٯٱ-ۓەۥ-ۦۮ-ۯۺ-ۼۿܐܒ-ܯݍ-ޥޱߊ-ߪߴ-ߵߺࠀ-ࠕࠚࠤࠨࡀ-ࡘࡠ-ࡪࡰ-ࢇࢉ-ࢎࢠ-ࣉऄ-हऽॐक़-ॡॱ-ঀঅ-ঌএ-ঐও-নপ-রলশ-হঽৎড়-ঢ়য়-ৡৰ-ৱৼਅ-ਊਏ-ਐਓ-ਨਪ-ਰਲ-ਲ਼ਵ-ਸ਼ਸ-ਹਖ਼-ੜਫ਼ੲ-ੴઅ-ઍએ-ઑઓ-નપ-રલ-ળવ-હઽૐૠ-ૡૹଅ-ଌଏ-ଐଓ-ନପ-ରଲ-ଳଵ-ହଽଡ଼-ଢ଼ୟ-ୡୱஃஅ-ஊஎ-ஐஒ-கங-சஜஞ-டண-தந-பம-ஹௐఅ-ఌఎ-ఐఒ-నప-హఽౘ-ౚౝౠ-ౡಀಅ-ಌಎ-ಐಒ-ನಪ-ಳವ-ಹಽೝ-ೞೠ-ೡೱ-ೲഄ-ഌഎ-ഐഒ-ഺഽൎൔ-ൖൟ-ൡൺ-ൿඅ-ඖක-නඳ-රලව-ෆก-ะา-ำเ-ๆກ-ຂຄຆ-ຊຌ-ຣລວ-ະາ-ຳຽເ-ໄໆໜ-ໟༀཀ-ཇཉ-ཬྈ-ྌက-ဪဿၐ-ၕၚ-ၝၡၥ-ၦၮ-ၰၵ-ႁႎႠ-ჅჇჍა-ჺჼ-ቈቊ-ቍቐ-ቖቘቚ-ቝበ-ኈኊ-ኍነ-ኰኲ-ኵኸ-ኾዀዂ-ዅወ-ዖዘ-ጐጒ-ጕጘ-ፚᎀ-ᎏᎠ-Ᏽᏸ-ᏽᐁ-ᙬᙯ-ᙿᚁ-ᚚᚠ-ᛪᛱ-ᛸᜀ-ᜑᜟ-ᜱᝀ-ᝑᝠ-ᝬᝮ-ᝰក-ឳៗៜᠠ-ᡸᢀ-ᢄᢇ-ᢨᢪᢰ-ᣵᤀ-ᤞᥐ-ᥭᥰ-ᥴᦀ-ᦫᦰ-ᧉᨀ-ᨖᨠ-ᩔᪧᬅ-ᬳᭅ-ᭌᮃ-ᮠᮮ-ᮯᮺ-ᯥᰀ-ᰣᱍ-ᱏᱚ-ᱽᲀ-ᲈᲐ-ᲺᲽ-Ჿᳩ-ᳬᳮ-ᳳᳵ-ᳶᳺᴀ-ᶿḀ-ἕἘ-Ἕἠ-ὅὈ-Ὅὐ-ὗὙὛὝὟ-ώᾀ-ᾴᾶ-ᾼιῂ-ῄῆ-ῌῐ-ΐῖ-Ίῠ-Ῥῲ-ῴῶ-ῼⁱⁿₐ-ₜℂℇℊ-ℓℕℙ-ℝℤΩℨK-ℭℯ-ℹℼ-ℿⅅ-ⅉⅎↃ-ↄⰀ-ⳤⳫ-ⳮⳲ-ⳳⴀ-ⴥⴧⴭⴰ-ⵧⵯⶀ-ⶖⶠ-ⶦⶨ-ⶮⶰ-ⶶⶸ-ⶾⷀ-ⷆⷈ-ⷎⷐ-ⷖⷘ-ⷞⸯ々-〆〱-〵〻-〼ぁ-ゖゝ-ゟァ-ヺー-ヿㄅ-ㄯㄱ-ㆎㆠ-ㆿㇰ-ㇿ㐀-䶿一-ꒌꓐ-ꓽꔀ-ꘌꘐ-ꘟꘪ-ꘫꙀ-ꙮꙿ-ꚝꚠ-ꛥꜗ-ꜟꜢ-ꞈꞋ-ꟊꟐ-ꟑꟓꟕ-ꟙꟲ-ꠁꠃ-ꠅꠇ-ꠊꠌ-ꠢꡀ-ꡳꢂ-ꢳꣲ-ꣷꣻꣽ-ꣾꤊ-ꤥꤰ-ꥆꥠ-ꥼꦄ-ꦲꧏꧠ-ꧤꧦ-ꧯꧺ-ꧾꨀ-ꨨꩀ-ꩂꩄ-ꩋꩠ-ꩶꩺꩾ-ꪯꪱꪵ-ꪶꪹ-ꪽꫀꫂꫛ-ꫝꫠ-ꫪꫲ-ꫴꬁ-ꬆꬉ-ꬎꬑ-ꬖꬠ-ꬦꬨ-ꬮꬰ-ꭚꭜ-ꭩꭰ-ꯢ가-힣ힰ-ퟆퟋ-ퟻ豈-舘並-龎ﬀ-ﬆﬓ-ﬗיִײַ-ﬨשׁ-זּטּ-לּמּנּ-סּףּ-פּצּ-ﮱﯓ-ﴽﵐ-ﶏﶒ-ﷇﷰ-ﷻﹰ-ﹴﹶ-ﻼＡ-Ｚａ-ｚｦ-ﾾￂ-ￇￊ-ￏￒ-ￗￚ-ￜ𐀀-𐀋𐀍-𐀦𐀨-𐀺𐀼-𐀽𐀿-𐁍𐁐-𐁝𐂀-𐃺𐊀-𐊜𐊠-𐋐𐌀-𐌟𐌭-𐍀𐍂-𐍉𐍐-𐍵𐎀-𐎝𐎠-𐏃𐏈-𐏏𐐀-𐒝𐒰-𐓓𐓘-𐓻𐔀-𐔧𐔰-𐕣𐕰-𐕺𐕼-𐖊𐖌-𐖒𐖔-𐖕𐖗-𐖡𐖣-𐖱𐖳-𐖹𐖻-𐖼𐘀-𐜶𐝀-𐝕𐝠-𐝧𐞀-𐞅𐞇-𐞰𐞲-𐞺𐠀-𐠅𐠈𐠊-𐠵𐠷-𐠸𐠼𐠿-𐡕𐡠-𐡶𐢀-𐢞𐣠-𐣲𐣴-𐣵𐤀-𐤕𐤠-𐤹𐦀-𐦷𐦾-𐦿𐨀𐨐-𐨓𐨕-𐨗𐨙-𐨵𐩠-𐩼𐪀-𐪜𐫀-𐫇𐫉-𐫤𐬀-𐬵𐭀-𐭕𐭠-𐭲𐮀-𐮑𐰀-𐱈𐲀-𐲲𐳀-𐳲𐴀-𐴣𐺀-𐺩𐺰-𐺱𐼀-𐼜𐼧𐼰-𐽅𐽰-𐾁𐾰-𐿄𐿠-𐿶𑀃-𑀷𑁱-𑁲𑁵𑂃-𑂯𑃐-𑃨𑄃-𑄦𑅄𑅇𑅐-𑅲𑅶𑆃-𑆲𑇁-𑇄𑇚𑇜𑈀-𑈑𑈓-𑈫𑈿-𑉀𑊀-𑊆𑊈𑊊-𑊍𑊏-𑊝𑊟-𑊨𑊰-𑋞𑌅-𑌌𑌏-𑌐𑌓-𑌨𑌪-𑌰𑌲-𑌳𑌵-𑌹𑌽𑍐𑍝-𑍡𑐀-𑐴𑑇-𑑊𑑟-𑑡𑒀-𑒯𑓄-𑓅𑓇𑖀-𑖮𑗘-𑗛𑘀-𑘯𑙄𑚀-𑚪𑚸𑜀-𑜚𑝀-𑝆𑠀-𑠫𑢠-𑣟𑣿-𑤆𑤉𑤌-𑤓𑤕-𑤖𑤘-𑤯𑤿𑥁𑦠-𑦧𑦪-𑧐𑧡𑧣𑨀𑨋-𑨲𑨺𑩐𑩜-𑪉𑪝𑪰-𑫸𑰀-𑰈𑰊-𑰮𑱀𑱲-𑲏𑴀-𑴆𑴈-𑴉𑴋-𑴰𑵆𑵠-𑵥𑵧-𑵨𑵪-𑶉𑶘𑻠-𑻲𑼂𑼄-𑼐𑼒-𑼳𑾰𒀀-𒎙𒒀-𒕃𒾐-𒿰𓀀-𓐯𓑁-𓑆𔐀-𔙆𖠀-𖨸𖩀-𖩞𖩰-𖪾𖫐-𖫭𖬀-𖬯𖭀-𖭃𖭣-𖭷𖭽-𖮏𖹀-𖹿𖼀-𖽊𖽐𖾓-𖾟𖿠-𖿡𖿣𗀀-𘟷𘠀-𘳕𘴀-𘴈𚿰-𚿳𚿵-𚿻𚿽-𚿾𛀀-𛄢𛄲𛅐-𛅒𛅕𛅤-𛅧𛅰-𛋻𛰀-𛱪𛱰-𛱼𛲀-𛲈𛲐-𛲙𝐀-𝑔𝑖-𝒜𝒞-𝒟𝒢𝒥-𝒦𝒩-𝒬𝒮-𝒹𝒻𝒽-𝓃𝓅-𝔅𝔇-𝔊𝔍-𝔔𝔖-𝔜𝔞-𝔹𝔻-𝔾𝕀-𝕄𝕆𝕊-𝕐𝕒-𝚥𝚨-𝛀𝛂-𝛚𝛜-𝛺𝛼-𝜔𝜖-𝜴𝜶-𝝎𝝐-𝝮𝝰-𝞈𝞊-𝞨𝞪-𝟂𝟄-𝟋𝼀-𝼞𝼥-𝼪𞀰-𞁭𞄀-𞄬𞄷-𞄽𞅎𞊐-𞊭𞋀-𞋫𞓐-𞓫𞟠-𞟦𞟨-𞟫𞟭-𞟮𞟰-𞟾𞠀-𞣄𞤀-𞥃𞥋𞸀-𞸃𞸅-𞸟𞸡-𞸢𞸤𞸧𞸩-𞸲𞸴-𞸷𞸹𞸻𞹂𞹇𞹉𞹋𞹍-𞹏𞹑-𞹒𞹔𞹗𞹙𞹛𞹝𞹟𞹡-𞹢𞹤𞹧-𞹪𞹬-𞹲𞹴-𞹷𞹹-𞹼𞹾𞺀-𞺉𞺋-𞺛𞺡-𞺣𞺥-𞺩𞺫-𞺻𠀀-𪛟𪜀-𫜹𫝀-𫠝𫠠-𬺡𬺰-𮯠丽-𪘀𰀀-𱍊𱍐-𲎯0-9²-³¹¼-¾٠-٩۰-۹߀-߉०-९০-৯৴-৹੦-੯૦-૯୦-୯୲-୷௦-௲౦-౯౸-౾೦-೯൘-൞൦-൸෦-෯๐-๙໐-໙༠-༳၀-၉႐-႙፩-፼ᛮ-ᛰ០-៩៰-៹᠐-᠙᥆-᥏᧐-᧚᪀-᪉᪐-᪙᭐-᭙᮰-᮹᱀-᱉᱐-᱙⁰⁴-⁹₀-₉⅐-ↂↅ-↉①-⒛⓪-⓿❶-➓⳽〇〡-〩〸-〺㆒-㆕㈠-㈩㉈-㉏㉑-㉟㊀-㊉㊱-㊿꘠-꘩ꛦ-ꛯ꠰-꠵꣐-꣙꤀-꤉꧐-꧙꧰-꧹꩐-꩙꯰-꯹０-９𐄇-𐄳𐅀-𐅸𐆊-𐆋𐋡-𐋻𐌠-𐌣𐍁𐍊𐏑-𐏕𐒠-𐒩𐡘-𐡟𐡹-𐡿𐢧-𐢯𐣻-𐣿𐤖-𐤛𐦼-𐦽𐧀-𐧏𐧒-𐧿𐩀-𐩈𐩽-𐩾𐪝-𐪟𐫫-𐫯𐭘-𐭟𐭸-𐭿𐮩-𐮯𐳺-𐳿𐴰-𐴹𐹠-𐹾𐼝-𐼦𐽑-𐽔𐿅-𐿋𑁒-𑁯𑃰-𑃹𑄶-𑄿𑇐-𑇙𑇡-𑇴𑋰-𑋹𑑐-𑑙𑓐-𑓙𑙐-𑙙𑛀-𑛉𑜰-𑜻𑣠-𑣲𑥐-𑥙𑱐-𑱬𑵐-𑵙𑶠-𑶩𑽐-𑽙𑿀-𑿔𒐀-𒑮𖩠-𖩩𖫀-𖫉𖭐-𖭙𖭛-𖭡𖺀-𖺖𝋀-𝋓𝋠-𝋳𝍠-𝍸𝟎-𝟿𞅀-𞅉𞋰-𞋹𞓰-𞓹𞣇-𞣏𞥐-𞥙𞱱-𞲫𞲭-𞲯𞲱-𞲴𞴁-𞴭𞴯-𞴽🄀-🄌🯰-🯹]+(?:''[A-Za-zªµºÀ-ÖØ-öø-ˁˆ-ˑˠ-ˤˬˮͰ-ʹͶ-ͷͺ-ͽͿΆΈ-ΊΌΎ-ΡΣ-ϵϷ-ҁҊ-ԯԱ-Ֆՙՠ-ֈא-תׯ-ײؠ-يٮ-ٯٱ-ۓەۥ-ۦۮ-ۯۺ-ۼۿܐܒ-ܯݍ-ޥޱߊ-ߪߴ-ߵߺࠀ-ࠕࠚࠤࠨࡀ-ࡘࡠ-ࡪࡰ-ࢇࢉ-ࢎࢠ-ࣉऄ-हऽॐक़-ॡॱ-ঀঅ-ঌএ-ঐও-নপ-রলশ-হঽৎড়-ঢ়য়-ৡৰ-ৱৼਅ-ਊਏ-ਐਓ-ਨਪ-ਰਲ-ਲ਼ਵ-ਸ਼ਸ-ਹਖ਼-ੜਫ਼ੲ-ੴઅ-ઍએ-ઑઓ-નપ-રલ-ળવ-હઽૐૠ-ૡૹଅ-ଌଏ-ଐଓ-ନପ-ରଲ-ଳଵ-ହଽଡ଼-ଢ଼ୟ-ୡୱஃஅ-ஊஎ-ஐஒ-கங-சஜஞ-டண-தந-பம-ஹௐఅ-ఌఎ-ఐఒ-నప-హఽౘ-ౚౝౠ-ౡಀಅ-ಌಎ-ಐಒ-ನಪ-ಳವ-ಹಽೝ-ೞೠ-ೡೱ-ೲഄ-ഌഎ-ഐഒ-ഺഽൎൔ-ൖൟ-ൡൺ-ൿඅ-ඖක-නඳ-රලව-ෆก-ะา-ำเ-ๆກ-ຂຄຆ-ຊຌ-ຣລວ-ະາ-ຳຽເ-ໄໆໜ-ໟༀཀ-ཇཉ-ཬྈ-ྌက-ဪဿၐ-ၕၚ-ၝၡၥ-ၦၮ-ၰၵ-ႁႎႠ-ჅჇჍა-ჺჼ-ቈቊ-ቍቐ-ቖቘቚ-ቝበ-ኈኊ-ኍነ-ኰኲ-ኵኸ-ኾዀዂ-ዅወ-ዖዘ-ጐጒ-ጕጘ-ፚᎀ-ᎏᎠ-Ᏽᏸ-ᏽᐁ-ᙬᙯ-ᙿᚁ-ᚚᚠ-ᛪᛱ-ᛸᜀ-ᜑᜟ-ᜱᝀ-ᝑᝠ-ᝬᝮ-ᝰក-ឳៗៜᠠ-ᡸᢀ-ᢄᢇ-ᢨᢪᢰ-ᣵᤀ-ᤞᥐ-ᥭᥰ-ᥴᦀ-ᦫᦰ-ᧉᨀ-ᨖᨠ-ᩔᪧᬅ-ᬳᭅ-ᭌᮃ-ᮠᮮ-ᮯᮺ-ᯥᰀ-ᰣᱍ-ᱏᱚ-ᱽᲀ-ᲈᲐ-ᲺᲽ-Ჿᳩ-ᳬᳮ-ᳳᳵ-ᳶᳺᴀ-ᶿḀ-ἕἘ-Ἕἠ-ὅὈ-Ὅὐ-ὗὙὛὝὟ-ώᾀ-ᾴᾶ-ᾼιῂ-ῄῆ-ῌῐ-ΐῖ-Ίῠ-Ῥῲ-ῴῶ-ῼⁱⁿₐ-ₜℂℇℊ-ℓℕℙ-ℝℤΩℨK-ℭℯ-ℹℼ-ℿⅅ-ⅉⅎↃ-ↄⰀ-ⳤⳫ-ⳮⳲ-ⳳⴀ-ⴥⴧⴭⴰ-ⵧⵯⶀ-ⶖⶠ-ⶦⶨ-ⶮⶰ-ⶶⶸ-ⶾⷀ-ⷆⷈ-ⷎⷐ-ⷖⷘ-ⷞⸯ々-〆〱-〵〻-〼ぁ-ゖゝ-ゟァ-ヺー-ヿㄅ-ㄯㄱ-ㆎㆠ-ㆿㇰ-ㇿ㐀-䶿一-ꒌꓐ-ꓽꔀ-ꘌꘐ-ꘟꘪ-ꘫꙀ-ꙮꙿ-ꚝꚠ-ꛥꜗ-ꜟꜢ-ꞈꞋ-ꟊꟐ-ꟑꟓꟕ-ꟙꟲ-ꠁꠃ-ꠅꠇ-ꠊꠌ-ꠢꡀ-ꡳꢂ-ꢳꣲ-ꣷꣻꣽ-ꣾꤊ-ꤥꤰ-ꥆꥠ-ꥼꦄ-ꦲꧏꧠ-ꧤꧦ-ꧯꧺ-ꧾꨀ-ꨨꩀ-ꩂꩄ-ꩋꩠ-ꩶꩺꩾ-ꪯꪱꪵ-ꪶꪹ-ꪽꫀꫂꫛ-ꫝꫠ-ꫪꫲ-ꫴꬁ-ꬆꬉ-ꬎꬑ-ꬖꬠ-ꬦꬨ-ꬮꬰ-ꭚꭜ-ꭩꭰ-ꯢ가-힣ힰ-ퟆퟋ-ퟻ豈-舘並-龎ﬀ-ﬆﬓ-ﬗיִײַ-ﬨשׁ-זּטּ-לּמּנּ-סּףּ-פּצּ-ﮱﯓ-ﴽﵐ-ﶏﶒ-ﷇﷰ-ﷻﹰ-ﹴﹶ-ﻼＡ-Ｚａ-ｚｦ-ﾾￂ-ￇￊ-ￏￒ-ￗￚ-ￜ𐀀-𐀋𐀍-𐀦𐀨-𐀺𐀼-𐀽𐀿-𐁍𐁐-𐁝𐂀-𐃺𐊀-𐊜𐊠-𐋐𐌀-𐌟𐌭-𐍀𐍂-𐍉𐍐-𐍵𐎀-𐎝𐎠-𐏃𐏈-𐏏𐐀-𐒝𐒰-𐓓𐓘-𐓻𐔀-𐔧𐔰-𐕣𐕰-𐕺𐕼-𐖊𐖌-𐖒𐖔-𐖕𐖗-𐖡𐖣-𐖱𐖳-𐖹𐖻-𐖼𐘀-𐜶𐝀-𐝕𐝠-𐝧𐞀-𐞅𐞇-𐞰𐞲-𐞺𐠀-𐠅𐠈𐠊-𐠵𐠷-𐠸𐠼𐠿-𐡕𐡠-𐡶𐢀-𐢞𐣠-𐣲𐣴-𐣵𐤀-𐤕𐤠-𐤹𐦀-𐦷𐦾-𐦿𐨀𐨐-𐨓𐨕-𐨗𐨙-𐨵𐩠-𐩼𐪀-𐪜𐫀-𐫇𐫉-𐫤𐬀-𐬵𐭀-𐭕𐭠-𐭲𐮀-𐮑𐰀-𐱈𐲀-𐲲𐳀-𐳲𐴀-𐴣𐺀-𐺩𐺰-𐺱𐼀-𐼜𐼧𐼰-𐽅𐽰-𐾁𐾰-𐿄𐿠-𐿶𑀃-𑀷𑁱-𑁲𑁵𑂃-𑂯𑃐-𑃨𑄃-𑄦𑅄𑅇𑅐-𑅲𑅶𑆃-𑆲𑇁-𑇄𑇚𑇜𑈀-𑈑𑈓-𑈫𑈿-𑉀𑊀-𑊆𑊈𑊊-𑊍𑊏-𑊝𑊟-𑊨𑊰-𑋞𑌅-𑌌𑌏-𑌐𑌓-𑌨𑌪-𑌰𑌲-𑌳𑌵-𑌹𑌽𑍐𑍝-𑍡𑐀-𑐴𑑇-𑑊𑑟-𑑡𑒀-𑒯𑓄-𑓅𑓇𑖀-𑖮𑗘-𑗛𑘀-𑘯𑙄𑚀-𑚪𑚸𑜀-𑜚𑝀-𑝆𑠀-𑠫𑢠-𑣟𑣿-𑤆𑤉𑤌-𑤓𑤕-𑤖𑤘-𑤯𑤿𑥁𑦠-𑦧𑦪-𑧐𑧡𑧣𑨀𑨋-𑨲𑨺𑩐𑩜-𑪉𑪝𑪰-𑫸𑰀-𑰈𑰊-𑰮𑱀𑱲-𑲏𑴀-𑴆𑴈-𑴉𑴋-𑴰𑵆𑵠-𑵥𑵧-𑵨𑵪-𑶉𑶘𑻠-𑻲𑼂𑼄-𑼐𑼒-𑼳𑾰𒀀-𒎙𒒀-𒕃𒾐-𒿰𓀀-𓐯𓑁-𓑆𔐀-𔙆𖠀-𖨸𖩀-𖩞𖩰-𖪾𖫐-𖫭𖬀-𖬯𖭀-𖭃𖭣-𖭷𖭽-𖮏𖹀-𖹿𖼀-𖽊𖽐𖾓-𖾟𖿠-𖿡𖿣𗀀-𘟷𘠀-𘳕𘴀-𘴈𚿰-𚿳𚿵-𚿻𚿽-𚿾𛀀-𛄢𛄲𛅐-𛅒𛅕𛅤-𛅧𛅰-𛋻𛰀-𛱪𛱰-𛱼𛲀-𛲈𛲐-𛲙𝐀-𝑔𝑖-𝒜𝒞-𝒟𝒢𝒥-𝒦𝒩-𝒬𝒮-𝒹𝒻𝒽-𝓃𝓅-𝔅𝔇-𝔊𝔍-𝔔𝔖-𝔜𝔞-𝔹𝔻-𝔾𝕀-𝕄𝕆𝕊-𝕐𝕒-𝚥𝚨-𝛀𝛂-𝛚𝛜-𝛺𝛼-𝜔𝜖-𝜴𝜶-𝝎𝝐-𝝮𝝰-𝞈𝞊-𝞨𝞪-𝟂𝟄-𝟋𝼀-𝼞𝼥-𝼪𞀰-𞁭𞄀-𞄬𞄷-𞄽𞅎𞊐-𞊭𞋀-𞋫𞓐-𞓫𞟠-𞟦𞟨-𞟫𞟭-𞟮𞟰-𞟾𞠀-𞣄𞤀-𞥃𞥋𞸀-𞸃𞸅-𞸟𞸡-𞸢𞸤𞸧𞸩-𞸲𞸴-𞸷𞸹𞸻𞹂𞹇𞹉𞹋𞹍-𞹏𞹑-𞹒𞹔𞹗𞹙𞹛𞹝𞹟𞹡-𞹢𞹤𞹧-𞹪𞹬-𞹲𞹴-𞹷𞹹-𞹼𞹾𞺀-𞺉𞺋-𞺛𞺡-𞺣𞺥-𞺩𞺫-𞺻𠀀-𪛟𪜀-𫜹𫝀-𫠝𫠠-𬺡𬺰-𮯠丽-𪘀𰀀-𱍊𱍐-𲎯0-9²-³¹¼-¾٠-٩۰-۹߀-߉०-९০-৯৴-৹੦-੯૦-૯୦-୯୲-୷௦-௲౦-౯౸-౾೦-೯൘-൞൦-൸෦-෯๐-๙໐-໙༠-༳၀-၉႐-႙፩-፼ᛮ-ᛰ០-៩៰-៹᠐-᠙᥆-᥏᧐-᧚᪀-᪉᪐-᪙᭐-᭙᮰-᮹᱀-᱉᱐-᱙⁰⁴-⁹₀-₉⅐-ↂↅ-↉①-⒛⓪-⓿❶-➓⳽〇〡-〩〸-〺㆒-㆕㈠-㈩㉈-㉏㉑-㉟㊀-㊉㊱-㊿꘠-꘩ꛦ-ꛯ꠰-꠵꣐-꣙꤀-꤉꧐-꧙꧰-꧹꩐-꩙꯰-꯹０-９𐄇-𐄳𐅀-𐅸𐆊-𐆋𐋡-𐋻𐌠-𐌣𐍁𐍊𐏑-𐏕𐒠-𐒩𐡘-𐡟𐡹-𐡿𐢧-𐢯𐣻-𐣿𐤖-𐤛𐦼-𐦽𐧀-𐧏𐧒-𐧿𐩀-𐩈𐩽-𐩾𐪝-𐪟𐫫-𐫯𐭘-𐭟𐭸-𐭿𐮩-𐮯𐳺-𐳿𐴰-𐴹𐹠-𐹾𐼝-𐼦𐽑-𐽔𐿅-𐿋𑁒-𑁯𑃰-𑃹𑄶-𑄿𑇐-𑇙𑇡-𑇴𑋰-𑋹𑑐-𑑙𑓐-𑓙𑙐-𑙙𑛀-𑛉𑜰-𑜻𑣠-𑣲𑥐-𑥙𑱐-𑱬𑵐-𑵙𑶠-𑶩𑽐-𑽙𑿀-𑿔𒐀-𒑮𖩠-𖩩𖫀-𖫉𖭐-𖭙𖭛-𖭡𖺀-𖺖𝋀-𝋓𝋠-𝋳𝍠-𝍸𝟎-𝟿𞅀-𞅉𞋰-𞋹𞓰-𞓹𞣇-𞣏𞥐-𞥙𞱱-𞲫𞲭-𞲯𞲱-𞲴𞴁-𞴭𞴯-𞴽🄀-🄌🯰-🯹]+)*',
                'g'
              ) WITH ORDINALITY AS m(match, pos)
            ) AS m
            WHERE
              m.token <> '' AND TRUE
          ) AS g
        ), sqlnb_documents AS (
          SELECT
            1 AS doc_id
        ), sqlnb_jll AS (
          SELECT
            j.doc_id AS doc_id,
            j.class_id AS class_id,
            CASE WHEN j.base IS NULL OR j.n_zero > 0 THEN NULL ELSE j.base + j.score END AS jll
          FROM (
            SELECT
              u.doc_id AS doc_id,
              u.class_id AS class_id,
              MAX(u.base) AS base,
              SUM(u.n_zero) AS n_zero,
              SUM(u.score) AS score
            FROM (
              SELECT
                d.doc_id AS doc_id,
                b.class_id AS class_id,
                b.score AS base,
                b.n_zero AS n_zero,
                CAST(0 AS DOUBLE PRECISION) AS score
              FROM sqlnb_documents AS d
              CROSS JOIN (
                SELECT
                  *
                FROM (
                  SELECT
                    b.class_id AS class_id,
                    b.score AS score,
                    b.n_zero AS n_zero
                  FROM "public".sqlnb_base AS b
                  WHERE
                    b.model = sqlnb_model
                ) AS k
                WHERE
                  sqlnb_model IN (
                    SELECT
                      model
                    FROM "public"."sqlnb_models"
                    WHERE
                      kind = 'multinomial'
                  )
                UNION ALL
                SELECT
                  *
                FROM (
                  SELECT
                    b.class_id AS class_id,
                    b.score AS score,
                    b.n_zero AS n_zero
                  FROM "public".sqlnb_base AS b
                  WHERE
                    b.model = sqlnb_model
                ) AS k
                WHERE
                  sqlnb_model IN (
                    SELECT
                      model
                    FROM "public"."sqlnb_models"
                    WHERE
                      kind = 'bernoulli'
                  )
                UNION ALL
                SELECT
                  *
                FROM (
                  SELECT
                    b.class_id AS class_id,
                    b.score AS score,
                    b.n_zero AS n_zero
                  FROM "public".sqlnb_base AS b
                  WHERE
                    b.model = sqlnb_model
                ) AS k
                WHERE
                  sqlnb_model IN (
                    SELECT
                      model
                    FROM "public"."sqlnb_models"
                    WHERE
                      kind = 'complement'
                  )
              ) AS b
              UNION ALL
              SELECT
                s.doc_id,
                s.class_id,
                CAST(NULL AS DOUBLE PRECISION),
                s.n_zero,
                s.score
              FROM (
                SELECT
                  *
                FROM (
                  SELECT
                    s.doc_id AS doc_id,
                    c.class_id AS class_id,
                    CASE c.class_id % 8
                      WHEN 0
                      THEN s.w0
                      WHEN 1
                      THEN s.w1
                      WHEN 2
                      THEN s.w2
                      WHEN 3
                      THEN s.w3
                      WHEN 4
                      THEN s.w4
                      WHEN 5
                      THEN s.w5
                      WHEN 6
                      THEN s.w6
                      WHEN 7
                      THEN s.w7
                    END AS score,
                    CASE c.class_id % 8
                      WHEN 0
                      THEN s.z0
                      WHEN 1
                      THEN s.z1
                      WHEN 2
                      THEN s.z2
                      WHEN 3
                      THEN s.z3
                      WHEN 4
                      THEN s.z4
                      WHEN 5
                      THEN s.z5
                      WHEN 6
                      THEN s.z6
                      WHEN 7
                      THEN s.z7
                    END AS n_zero
                  FROM (
                    SELECT
                      t.doc_id AS doc_id,
                      s.base AS base,
                      SUM(t.count * COALESCE(s.w0, 0)) AS w0,
                      SUM(CASE WHEN s.w0 IS NULL THEN 1 ELSE 0 END) AS z0,
                      SUM(t.count * COALESCE(s.w1, 0)) AS w1,
                      SUM(CASE WHEN s.w1 IS NULL THEN 1 ELSE 0 END) AS z1,
                      SUM(t.count * COALESCE(s.w2, 0)) AS w2,
                      SUM(CASE WHEN s.w2 IS NULL THEN 1 ELSE 0 END) AS z2,
                      SUM(t.count * COALESCE(s.w3, 0)) AS w3,
                      SUM(CASE WHEN s.w3 IS NULL THEN 1 ELSE 0 END) AS z3,
                      SUM(t.count * COALESCE(s.w4, 0)) AS w4,
                      SUM(CASE WHEN s.w4 IS NULL THEN 1 ELSE 0 END) AS z4,
                      SUM(t.count * COALESCE(s.w5, 0)) AS w5,
                      SUM(CASE WHEN s.w5 IS NULL THEN 1 ELSE 0 END) AS z5,
                      SUM(t.count * COALESCE(s.w6, 0)) AS w6,
                      SUM(CASE WHEN s.w6 IS NULL THEN 1 ELSE 0 END) AS z6,
                      SUM(t.count * COALESCE(s.w7, 0)) AS w7,
                      SUM(CASE WHEN s.w7 IS NULL THEN 1 ELSE 0 END) AS z7
                    FROM (
                      SELECT
                        t.doc_id AS doc_id,
                        t.word AS word,
                        t.count AS count
                      FROM (
                        SELECT
                          *
                        FROM sqlnb_input
                      ) AS t
                      WHERE
                        t.count > 0
                    ) AS t
                    JOIN "public"."sqlnb_scoring" AS s
                      ON s.word = t.word
                    WHERE
                      s.model = sqlnb_model
                    GROUP BY
                      t.doc_id,
                      s.base
                  ) AS s
                  JOIN "public".sqlnb_classes AS c
                    ON c.class_id - c.class_id % 8 = s.base
                  WHERE
                    c.model = sqlnb_model
                ) AS k
                WHERE
                  sqlnb_model IN (
                    SELECT
                      model
                    FROM "public"."sqlnb_models"
                    WHERE
                      kind = 'multinomial'
                  )
                UNION ALL
                SELECT
                  *
                FROM (
                  SELECT
                    s.doc_id AS doc_id,
                    c.class_id AS class_id,
                    CASE c.class_id % 8
                      WHEN 0
                      THEN s.w0
                      WHEN 1
                      THEN s.w1
                      WHEN 2
                      THEN s.w2
                      WHEN 3
                      THEN s.w3
                      WHEN 4
                      THEN s.w4
                      WHEN 5
                      THEN s.w5
                      WHEN 6
                      THEN s.w6
                      WHEN 7
                      THEN s.w7
                    END AS score,
                    CASE c.class_id % 8
                      WHEN 0
                      THEN s.z0
                      WHEN 1
                      THEN s.z1
                      WHEN 2
                      THEN s.z2
                      WHEN 3
                      THEN s.z3
                      WHEN 4
                      THEN s.z4
                      WHEN 5
                      THEN s.z5
                      WHEN 6
                      THEN s.z6
                      WHEN 7
                      THEN s.z7
                    END AS n_zero
                  FROM (
                    SELECT
                      t.doc_id AS doc_id,
                      CASE WHEN s.base < 0 THEN -1 - s.base ELSE s.base END AS base,
                      SUM(t.count * CASE WHEN s.base < 0 THEN -1 ELSE 1 END * COALESCE(s.w0, 0)) AS w0,
                      SUM(CASE WHEN s.w0 IS NULL THEN CASE WHEN s.base < 0 THEN -1 ELSE 1 END ELSE 0 END) AS z0,
                      SUM(t.count * CASE WHEN s.base < 0 THEN -1 ELSE 1 END * COALESCE(s.w1, 0)) AS w1,
                      SUM(CASE WHEN s.w1 IS NULL THEN CASE WHEN s.base < 0 THEN -1 ELSE 1 END ELSE 0 END) AS z1,
                      SUM(t.count * CASE WHEN s.base < 0 THEN -1 ELSE 1 END * COALESCE(s.w2, 0)) AS w2,
                      SUM(CASE WHEN s.w2 IS NULL THEN CASE WHEN s.base < 0 THEN -1 ELSE 1 END ELSE 0 END) AS z2,
                      SUM(t.count * CASE WHEN s.base < 0 THEN -1 ELSE 1 END * COALESCE(s.w3, 0)) AS w3,
                      SUM(CASE WHEN s.w3 IS NULL THEN CASE WHEN s.base < 0 THEN -1 ELSE 1 END ELSE 0 END) AS z3,
                      SUM(t.count * CASE WHEN s.base < 0 THEN -1 ELSE 1 END * COALESCE(s.w4, 0)) AS w4,
                      SUM(CASE WHEN s.w4 IS NULL THEN CASE WHEN s.base < 0 THEN -1 ELSE 1 END ELSE 0 END) AS z4,
                      SUM(t.count * CASE WHEN s.base < 0 THEN -1 ELSE 1 END * COALESCE(s.w5, 0)) AS w5,
                      SUM(CASE WHEN s.w5 IS NULL THEN CASE WHEN s.base < 0 THEN -1 ELSE 1 END ELSE 0 END) AS z5,
                      SUM(t.count * CASE WHEN s.base < 0 THEN -1 ELSE 1 END * COALESCE(s.w6, 0)) AS w6,
                      SUM(CASE WHEN s.w6 IS NULL THEN CASE WHEN s.base < 0 THEN -1 ELSE 1 END ELSE 0 END) AS z6,
                      SUM(t.count * CASE WHEN s.base < 0 THEN -1 ELSE 1 END * COALESCE(s.w7, 0)) AS w7,
                      SUM(CASE WHEN s.w7 IS NULL THEN CASE WHEN s.base < 0 THEN -1 ELSE 1 END ELSE 0 END) AS z7
                    FROM (
                      SELECT DISTINCT
                        x.doc_id AS doc_id,
                        x.word AS word,
                        1 AS count
                      FROM (
                        SELECT
                          *
                        FROM sqlnb_input
                      ) AS x
                      WHERE
                        x.count > 0
                    ) AS t
                    JOIN "public"."sqlnb_scoring" AS s
                      ON s.word = t.word
                    WHERE
                      s.model = sqlnb_model
                    GROUP BY
                      t.doc_id,
                      CASE WHEN s.base < 0 THEN -1 - s.base ELSE s.base END
                  ) AS s
                  JOIN "public".sqlnb_classes AS c
                    ON c.class_id - c.class_id % 8 = s.base
                  WHERE
                    c.model = sqlnb_model
                ) AS k
                WHERE
                  sqlnb_model IN (
                    SELECT
                      model
                    FROM "public"."sqlnb_models"
                    WHERE
                      kind = 'bernoulli'
                  )
                UNION ALL
                SELECT
                  *
                FROM (
                  SELECT
                    s.doc_id AS doc_id,
                    c.class_id AS class_id,
                    CASE c.class_id % 8
                      WHEN 0
                      THEN s.w0
                      WHEN 1
                      THEN s.w1
                      WHEN 2
                      THEN s.w2
                      WHEN 3
                      THEN s.w3
                      WHEN 4
                      THEN s.w4
                      WHEN 5
                      THEN s.w5
                      WHEN 6
                      THEN s.w6
                      WHEN 7
                      THEN s.w7
                    END AS score,
                    CASE c.class_id % 8
                      WHEN 0
                      THEN s.z0
                      WHEN 1
                      THEN s.z1
                      WHEN 2
                      THEN s.z2
                      WHEN 3
                      THEN s.z3
                      WHEN 4
                      THEN s.z4
                      WHEN 5
                      THEN s.z5
                      WHEN 6
                      THEN s.z6
                      WHEN 7
                      THEN s.z7
                    END AS n_zero
                  FROM (
                    SELECT
                      t.doc_id AS doc_id,
                      s.base AS base,
                      SUM(t.count * COALESCE(s.w0, 0)) AS w0,
                      SUM(CASE WHEN s.w0 IS NULL THEN 1 ELSE 0 END) AS z0,
                      SUM(t.count * COALESCE(s.w1, 0)) AS w1,
                      SUM(CASE WHEN s.w1 IS NULL THEN 1 ELSE 0 END) AS z1,
                      SUM(t.count * COALESCE(s.w2, 0)) AS w2,
                      SUM(CASE WHEN s.w2 IS NULL THEN 1 ELSE 0 END) AS z2,
                      SUM(t.count * COALESCE(s.w3, 0)) AS w3,
                      SUM(CASE WHEN s.w3 IS NULL THEN 1 ELSE 0 END) AS z3,
                      SUM(t.count * COALESCE(s.w4, 0)) AS w4,
                      SUM(CASE WHEN s.w4 IS NULL THEN 1 ELSE 0 END) AS z4,
                      SUM(t.count * COALESCE(s.w5, 0)) AS w5,
                      SUM(CASE WHEN s.w5 IS NULL THEN 1 ELSE 0 END) AS z5,
                      SUM(t.count * COALESCE(s.w6, 0)) AS w6,
                      SUM(CASE WHEN s.w6 IS NULL THEN 1 ELSE 0 END) AS z6,
                      SUM(t.count * COALESCE(s.w7, 0)) AS w7,
                      SUM(CASE WHEN s.w7 IS NULL THEN 1 ELSE 0 END) AS z7
                    FROM (
                      SELECT
                        t.doc_id AS doc_id,
                        t.word AS word,
                        t.count AS count
                      FROM (
                        SELECT
                          *
                        FROM sqlnb_input
                      ) AS t
                      WHERE
                        t.count > 0
                    ) AS t
                    JOIN "public"."sqlnb_scoring" AS s
                      ON s.word = t.word
                    WHERE
                      s.model = sqlnb_model
                    GROUP BY
                      t.doc_id,
                      s.base
                  ) AS s
                  JOIN "public".sqlnb_classes AS c
                    ON c.class_id - c.class_id % 8 = s.base
                  WHERE
                    c.model = sqlnb_model
                ) AS k
                WHERE
                  sqlnb_model IN (
                    SELECT
                      model
                    FROM "public"."sqlnb_models"
                    WHERE
                      kind = 'complement'
                  )
              ) AS s
            ) AS u
            GROUP BY
              u.doc_id,
              u.class_id
          ) AS j
        ), sqlnb_posterior AS (
          SELECT
            b.doc_id AS doc_id,
            b.class_id AS class_id,
            b.jll AS jll,
            b.jll - (
              b.top + LN(CASE WHEN b.total > 0 THEN b.total END)
            ) AS log_proba,
            CASE
              WHEN b.top IS NULL
              THEN NULL
              WHEN b.jll IS NULL
              THEN CAST(0 AS DOUBLE PRECISION)
              WHEN b.jll - (
                b.top + LN(b.total)
              ) < -700
              THEN CAST(0 AS DOUBLE PRECISION)
              ELSE EXP(b.jll - (
                b.top + LN(b.total)
              ))
            END AS proba,
            ROW_NUMBER() OVER (
              PARTITION BY b.doc_id
              ORDER BY CASE WHEN b.jll IS NULL THEN 1 ELSE 0 END, b.jll DESC NULLS LAST, b.class_id
            ) AS rn
          FROM (
            SELECT
              a.doc_id AS doc_id,
              a.class_id AS class_id,
              a.jll AS jll,
              a.top AS top,
              SUM(
                CASE WHEN a.jll IS NULL OR a.jll - a.top < -700 THEN 0 ELSE EXP(a.jll - a.top) END
              ) OVER (PARTITION BY a.doc_id) AS total
            FROM (
              SELECT
                j.doc_id AS doc_id,
                j.class_id AS class_id,
                j.jll AS jll,
                MAX(j.jll) OVER (PARTITION BY j.doc_id) AS top
              FROM sqlnb_jll AS j
            ) AS a
          ) AS b
        )
        SELECT
          p.doc_id AS doc_id,
          c.label AS label,
          p.proba AS proba
        FROM sqlnb_posterior AS p
        JOIN "public".sqlnb_classes AS c
          ON c.class_id = p.class_id
        WHERE
          c.model = sqlnb_model AND p.rn = 1
      ) AS q
    )
  )
END;
END
$sqlnb$;
