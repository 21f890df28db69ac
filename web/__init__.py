"""Web front end of the companion (Flask app served by waitress)."""
