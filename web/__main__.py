"""python -m web [options]: the same as `pegs serve`."""
import sys

from .cli import serve_command

sys.exit(serve_command(sys.argv[1:]))
