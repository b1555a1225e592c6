-- Hierarchical labels in ClickHouse's SQL functions (sqlnb_classify, sqlnb_proba), whose lambdas
-- take no subquery: sql/labels/nodes.sql and walk.sql over arrays. {labels} are the model's
-- classes (paths) in class order, {probas} the text's posterior in that order, {sep} the
-- separator and {confidence} the stored confidence. The nodes ns are every prefix of a path; a
-- node's probability np is the sum of the posteriors of the paths under it (the path itself, or
-- one starting with the node and the separator; an undefined posterior, NULL, adds 0), its
-- first class nf the first such path, its depth nd its number of parts, its parent the node one
-- part shorter ('' for a top node). A node is best (nb) when no node of its parent has a larger
-- probability (ties: the smaller first class); on the walk's path (path) when each of its
-- ancestors (anc), itself included, is best; lowest is the smallest probability among its
-- ancestors. walked is (label, proba): the deepest node on the path whose lowest is at or above
-- {confidence} and its probability; if there is none, NULL and the top node's probability.
-- arrayMap(name -> ..., [value])[1] names a value.
SELECT
  arrayMap(
    ns -> arrayMap(
      np -> arrayMap(
        nf -> arrayMap(
          nd -> arrayMap(
            par -> arrayMap(
              nb -> arrayMap(
                anc -> arrayMap(
                  path -> arrayMap(
                    lowest -> arrayMap(
                      ok -> arrayMap(
                        j -> (if(length(ok) > 0, ns[j], NULL), np[j]),
                        [
                          if(
                            length(ok) > 0,
                            arraySort(k -> -nd[k], ok)[1],
                            arrayFilter(k -> path[k] AND nd[k] = 1, arrayEnumerate(ns))[1]
                          )
                        ]
                      )[1],
                      [arrayFilter(k -> path[k] AND lowest[k] >= {confidence: String}, arrayEnumerate(ns))]
                    )[1],
                    [
                      arrayMap(
                        j -> arrayMin(arrayFilter((x, k) -> anc[j][k], np, arrayEnumerate(ns))),
                        arrayEnumerate(ns)
                      )
                    ]
                  )[1],
                  [
                    arrayMap(
                      j -> arrayAll(k -> NOT anc[j][k] OR nb[k], arrayEnumerate(ns)),
                      arrayEnumerate(ns)
                    )
                  ]
                )[1],
                [
                  arrayMap(
                    j -> arrayMap(
                      k -> nd[k] <= nd[j]
                        AND (ns[k] = ns[j] OR startsWith(ns[j], concat(ns[k], {sep: String}))),
                      arrayEnumerate(ns)
                    ),
                    arrayEnumerate(ns)
                  )
                ]
              )[1],
              [
                arrayMap(
                  j -> NOT arrayExists(
                    k -> par[k] = par[j] AND (np[k] > np[j] OR (np[k] = np[j] AND nf[k] < nf[j])),
                    arrayEnumerate(ns)
                  ),
                  arrayEnumerate(ns)
                )
              ]
            )[1],
            [
              arrayMap(
                n -> arrayStringConcat(
                  arraySlice(
                    splitByString({sep: String}, n), 1, length(splitByString({sep: String}, n)) - 1
                  ),
                  {sep: String}
                ),
                ns
              )
            ]
          )[1],
          [arrayMap(n -> length(splitByString({sep: String}, n)), ns)]
        )[1],
        [
          arrayMap(
            n -> arrayFirstIndex(
              l -> l = n OR startsWith(l, concat(n, {sep: String})), {labels: String}
            ),
            ns
          )
        ]
      )[1],
      [
        arrayMap(
          n -> arraySum(
            arrayMap(
              (l, p) -> if(l = n OR startsWith(l, concat(n, {sep: String})), ifNull(p, 0), 0),
              {labels: String},
              {probas: String}
            )
          ),
          ns
        )
      ]
    )[1],
    [
      arrayDistinct(
        arrayFlatten(
          arrayMap(
            l -> arrayMap(
              d -> arrayStringConcat(arraySlice(splitByString({sep: String}, l), 1, d), {sep: String}),
              range(1, length(splitByString({sep: String}, l)) + 1)
            ),
            {labels: String}
          )
        )
      )
    ]
  )[1] AS walked
