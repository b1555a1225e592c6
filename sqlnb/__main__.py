from sqlnb.cli import app

app(prog_name="sqlnb")
