"""The service layer: the commands that change a match and the queries that read one (`matches`),
players' figures and ratings (`players`), and accounts. It raises its own errors (`errors`) and
imports nothing of the web: no request, no form, no HTTP status (tests/test_layout.py)."""
