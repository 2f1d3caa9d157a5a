"""The memory a process may still allocate, for the checks that refuse work beyond it up front
(the outputs of a run, the arrays of a Result file)."""
import os


def available_memory():
    """Memory available to a new allocation (bytes): MemAvailable of /proc/meminfo where there is
    one, else the free physical pages."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
