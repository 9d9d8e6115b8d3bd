"""gunicorn settings for a checkout: `gunicorn -c gunicorn.conf.py` is `scoresheet-serve`
(`scoresheet/serve.py` holds the settings and says what each environment variable does)."""

from scoresheet.serve import settings

globals().update(settings())
