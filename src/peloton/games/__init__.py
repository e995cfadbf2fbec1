"""The games Peloton plays, one package each."""
