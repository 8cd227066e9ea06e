"""`python -m checker.runs [--check] [ID ...]`: make the read-the-run drills' logs again (see `generate`)."""
import sys

from checker.runs.generate import main

sys.exit(main())
