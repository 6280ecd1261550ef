from kopa_inspect.cli import app

app()
