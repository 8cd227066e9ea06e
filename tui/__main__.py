"""`python -m tui` runs the same command as `ppo-drill`."""
import sys

from tui.cli import main

sys.exit(main())
