"""One function run by several threads at once: the tests that a model, its kernels and a Result
are shared safely between threads (a run allocates its own workspace, the model's arrays are
read-only, a Result's lazy outputs are computed under a lock)."""
import threading


def in_threads(f, n=4):
    """``f()`` called by n threads released together (a barrier); their results, in order."""
    results, barrier = [None] * n, threading.Barrier(n)

    def go(k):
        barrier.wait()
        results[k] = f()

    threads = [threading.Thread(target=go, args=(k,)) for k in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results
