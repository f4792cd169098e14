"""`python -m hokm_sim` is the `hokm-sim` command."""

from hokm_sim.cli import main

main()
