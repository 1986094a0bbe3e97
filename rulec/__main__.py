from rulec.cli.main import main

raise SystemExit(main())
