"""asv benchmarks of rancf (run asv from the folder above; see README.md)."""
