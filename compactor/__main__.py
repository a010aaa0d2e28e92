"""``python -m compactor``: see ``python -m compactor --help``."""

import sys

from compactor.cli import main

sys.exit(main())
