"""What is asked of a model beyond one run: parameter studies, one run per parameter set
(:mod:`.sweep`, ``rancf.sweep``), and the vibration modes about a static equilibrium
(:mod:`.vibration`, ``rancf.modes``)."""
