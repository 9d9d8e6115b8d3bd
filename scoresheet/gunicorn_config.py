"""gunicorn's settings for the scoresheet, read from the environment when gunicorn loads this
module (`scoresheet-serve` runs `gunicorn -c python:scoresheet.gunicorn_config`; see
`serve.settings` for each one)."""

from .serve import settings

globals().update(settings())
