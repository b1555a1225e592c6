from sqlnb.cli import main

main()
