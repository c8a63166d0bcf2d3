from bgdoor.cli import main

raise SystemExit(main())
