"""rancf: recursive absolute nodal coordinate formulation for planar flexible chains."""
