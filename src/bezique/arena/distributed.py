"""Seeded tasks run here, in worker processes, or on a Ray cluster, with the same results.

Arena decks, the strength suite and self-play all come down to one shape of work: a list of
independent tasks, each a plain picklable value that decides its own result (its seeds are in
it), and a module-level function that turns a task into a result.  :func:`run_tasks` runs such
a list

* **here**, one task after the other (``jobs=1``);
* in ``jobs`` **worker processes** on this machine;
* on **Ray** (``ray=...``, the ``cluster`` extra): on a local instance started for the run
  (:data:`LOCAL`), on the cluster this machine belongs to (``"auto"``), through the Ray client
  (``"ray://host:port"``) or as a driver on a cluster node (``"host:port"``, the head's GCS).
  When this process is already connected (``ray.init`` was called), that connection is used.
  A local instance takes seconds to start; meanwhile the first tasks run in worker processes
  here, and Ray takes the rest once it is up.

and returns the results **in task order**, whatever order they finished in, so a run's result
depends on its tasks only, never on where or when they ran.

**Failures.**  On Ray a task whose worker dies (killed, out of memory, its node lost) is run
again, up to ``retries`` times, by Ray itself; its result is taken exactly once, when its one
object reference resolves, and stored under the task's index, so a retried task is never
counted twice and none is left out.  A task that *raises* is not retried (a deterministic task
would raise again): the run stops with :class:`TaskError`, naming the task.

**Batches.**  ``batch=k`` sends ``k`` consecutive tasks as one unit of work, for tasks much
shorter than the few milliseconds a Ray task costs to schedule; progress still counts tasks.
"""

from __future__ import annotations

import importlib
import logging
import multiprocessing
import os
import queue
import re
import socket
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")

LOCAL = "local"
"""``ray=LOCAL``: start a Ray instance on this machine for the run, and stop it afterwards."""

INSTALL_HINT = "Ray is not installed: pip install 'bezique[cluster]'"

DEFAULT_RETRIES = 3
"""How many times Ray runs a task again after its worker died."""

CONNECT_TIMEOUT = 5.0
"""Seconds to wait for a cluster address to answer before saying it does not."""

_HOST_PORT = re.compile(r"^(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+):(?P<port>[0-9]{1,5})$")


class ClusterError(RuntimeError):
    """A Ray run could not start or finish; the message is one line saying why."""


class TaskError(RuntimeError):
    """A task raised an exception (on any backend); ``index`` is the task's place in the list."""

    def __init__(self, index: int, message: str) -> None:
        super().__init__(f"task {index} failed: {message}")
        self.index = index
        self.message = message

    def __reduce__(self) -> tuple[type[TaskError], tuple[int, str]]:
        # worker processes and Ray send it back pickled
        return TaskError, (self.index, self.message)


def check_address(address: str) -> str:
    """The address, checked for form: :data:`LOCAL`, ``auto``, ``ray://host:port`` or
    ``host:port``.  ClusterError says what is wrong with anything else."""
    text = address.strip()
    if text in (LOCAL, "auto"):
        return text
    rest = text.removeprefix("ray://")
    m = _HOST_PORT.match(rest)
    if m is None or not 0 < int(m["port"]) < 65536:
        raise ClusterError(
            f"bad Ray address {address!r}: use ray://HOST:PORT (the head's client port, "
            "usually 10001), HOST:PORT (the head's GCS port, usually 6379, from a cluster "
            "node), or auto"
        )
    return text


def require_ray() -> Any:
    """The ray module, or ClusterError saying what to install."""
    try:
        return importlib.import_module("ray")
    except ImportError:
        raise ClusterError(INSTALL_HINT) from None


def _reachable(address: str) -> None:
    """ClusterError unless something answers at the address's host and port (a quick check:
    Ray's own connection attempts take a minute or more to give up)."""
    m = _HOST_PORT.match(address.removeprefix("ray://"))
    assert m is not None
    host, port = m["host"].strip("[]"), int(m["port"])
    try:
        with socket.create_connection((host, port), timeout=CONNECT_TIMEOUT):
            pass
    except OSError as e:
        reason = e.strerror or str(e) or type(e).__name__
        raise ClusterError(f"no Ray cluster answers at {address}: {reason}") from None


def _connect(ray: Any, address: str, cpus: int | None) -> None:
    """``ray.init`` for a checked address, its failures as one-line ClusterErrors."""
    if address == LOCAL:
        target, options = "local", {"num_cpus": cpus or os.cpu_count() or 1}
        # an instance of our own reports nothing to Ray's usage statistics (Ray's default is
        # to send them out once an hour); a person's explicit setting is kept
        os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    else:
        if address != "auto":
            _reachable(address)
        target, options = address, {}
    try:
        ray.init(
            target,
            include_dashboard=False,
            logging_level=logging.ERROR,
            log_to_driver=False,
            **options,
        )
    except (ConnectionError, ValueError, RuntimeError, TimeoutError) as e:
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        hint = _auth_hint() if address != LOCAL else ""
        raise ClusterError(f"cannot connect to Ray at {address}: {first}{hint}") from None
    except SystemExit:  # Ray exits when a GCS it was pointed at never answers
        hint = _auth_hint() if address != LOCAL else ""
        raise ClusterError(f"cannot connect to Ray at {address}: no answer{hint}") from None


def _auth_hint() -> str:
    """What a refused connection most often lacks: Ray clusters want a token by default, and a
    machine outside the cluster sends none unless told to."""
    if os.environ.get("RAY_AUTH_MODE"):
        return ""
    return (
        " (a cluster with token authentication, Ray's default, also needs RAY_AUTH_MODE=token "
        "and RAY_AUTH_TOKEN set here: see docs/distributed.md)"
    )


@contextmanager
def ray_session(address: str = LOCAL, cpus: int | None = None) -> Iterator[Any]:
    """Connect to Ray for the body of the ``with`` and give the ray module.

    An existing connection of this process is used as it is and left open.  Otherwise
    :data:`LOCAL` starts an instance with ``cpus`` CPUs (default: every core) and stops it at
    the end; any other address connects to that cluster and disconnects at the end.
    ClusterError (one line) when Ray is missing or the cluster cannot be reached."""
    address = check_address(address)
    ray = require_ray()
    if ray.is_initialized():
        yield ray
        return
    _connect(ray, address, cpus)
    try:
        yield ray
    finally:
        ray.shutdown()


class _Helper(threading.Thread):
    """Runs chunks in worker processes of this machine, from the first on, until told to stop
    (while a local Ray instance starts); every chunk it started is finished before it ends.
    ``next`` is the first chunk it did not start, ``error`` what a chunk raised."""

    def __init__(
        self,
        pool: Any,
        size: int,
        fn: Callable[[Any], Any],
        chunks: list[list[Any]],
        batch: int,
        finished: Callable[[int, list[Any]], None],
    ) -> None:
        super().__init__(name="bezique-while-ray-starts", daemon=True)
        self.pool, self.size = pool, size
        self.fn, self.chunks, self.batch, self.finished = fn, chunks, batch, finished
        self.stop = threading.Event()
        self.next = 0
        self.error: BaseException | None = None

    def run(self) -> None:
        done: queue.Queue[tuple[int, list[Any] | None, BaseException | None]] = queue.Queue()
        running = 0
        while True:
            while (
                not self.stop.is_set()
                and self.error is None
                and running < self.size
                and self.next < len(self.chunks)
            ):
                i = self.next
                self.pool.apply_async(
                    _run_chunk,
                    (self.fn, i * self.batch, self.chunks[i]),
                    callback=lambda value, i=i: done.put((i, value, None)),
                    error_callback=lambda e, i=i: done.put((i, None, e)),
                )
                self.next, running = i + 1, running + 1
            if running == 0:
                return
            try:
                i, value, error = done.get(timeout=0.05)
            except queue.Empty:
                continue
            running -= 1
            if error is not None:
                self.error = self.error or error
            elif value is not None:
                self.finished(i, value)


def run_tasks(
    fn: Callable[[T], R],
    tasks: Sequence[T],
    *,
    jobs: int | None = None,
    ray: str | None = None,
    batch: int = 1,
    retries: int = DEFAULT_RETRIES,
    progress: Callable[[int, int], None] | None = None,
) -> list[R]:
    """``[fn(t) for t in tasks]``, computed here, in ``jobs`` processes or on Ray (see the
    module docstring); ``progress(done, total)`` is called as tasks finish.

    ``fn`` must be a module-level function (workers import it by name) and ``tasks`` picklable
    values.  ``jobs`` defaults to 1 (here); with ``ray`` it is the CPUs of a local instance
    (default: every core) and must not be given for a cluster."""
    if ray is not None and jobs is not None and check_address(ray) != LOCAL:
        raise ValueError("jobs sets the CPUs of a local Ray instance: a cluster uses all its CPUs")
    if jobs is not None and jobs < 1:
        raise ValueError(f"jobs must be at least 1: got {jobs}")
    if batch < 1:
        raise ValueError(f"batch must be at least 1: got {batch}")
    if retries < 0:
        raise ValueError(f"retries must not be negative: got {retries}")
    chunks = [list(tasks[i : i + batch]) for i in range(0, len(tasks), batch)]
    results: list[list[R] | None] = [None] * len(chunks)
    done = 0

    def finished(i: int, value: list[R]) -> None:
        nonlocal done
        # every chunk's result is stored once, under its own index: no double counting
        assert results[i] is None, f"chunk {i} finished twice"
        results[i] = value
        done += len(value)
        if progress is not None:
            progress(done, len(tasks))

    if ray is not None:
        address, ray_module = check_address(ray), require_ray()
        if address == LOCAL and not ray_module.is_initialized():
            _run_while_starting(ray_module, jobs, fn, chunks, batch, retries, finished)
        else:
            with ray_session(address, jobs) as ray_module:
                _run_on_ray(ray_module, fn, chunks, 0, batch, retries, finished)
    elif jobs is None or jobs == 1 or len(chunks) <= 1:
        for i, chunk in enumerate(chunks):
            finished(i, _run_chunk(fn, i * batch, chunk))
    else:
        work = [(fn, i * batch, chunk) for i, chunk in enumerate(chunks)]
        with _processes().Pool(min(jobs, len(chunks))) as pool:
            for i, value in pool.imap_unordered(_indexed_chunk, enumerate(work)):
                finished(i, value)
    missing = [i * batch for i, chunk in enumerate(results) if chunk is None]
    if missing:  # cannot happen: every path above finishes every chunk or raises
        raise ClusterError(f"tasks lost without an error, from task {missing[0]} on")
    return [r for chunk in results if chunk is not None for r in chunk]


def _run_chunk(fn: Callable[[T], R], first: int, chunk: list[T]) -> list[R]:
    """The results of one chunk; an exception becomes TaskError naming the task."""
    out = []
    for k, task in enumerate(chunk):
        try:
            out.append(fn(task))
        except Exception as e:
            raise TaskError(first + k, f"{type(e).__name__}: {e}") from e
    return out


def _indexed_chunk(item: tuple[int, tuple[Callable[[T], R], int, list[T]]]) -> tuple[int, list[R]]:
    i, (fn, first, chunk) = item
    return i, _run_chunk(fn, first, chunk)


def _run_while_starting(
    ray: Any,
    cpus: int | None,
    fn: Callable[[T], R],
    chunks: list[list[T]],
    batch: int,
    retries: int,
    finished: Callable[[int, list[R]], None],
) -> None:
    """Start a local Ray instance and run the chunks on it; while it starts (many seconds on a
    small machine) run the first chunks in worker processes here, so the wait is not lost.
    Stop it at the end.

    The worker processes are forked before Ray starts a thread, and Ray is started from the
    main thread: the processes it starts die with the thread that started them."""
    size = cpus or os.cpu_count() or 1
    with _processes().Pool(size) as pool:
        helper = _Helper(pool, size, fn, chunks, batch, finished)
        helper.start()
        try:
            _connect(ray, LOCAL, cpus)
        finally:
            helper.stop.set()
            helper.join()
    try:
        if helper.error is not None:
            raise helper.error
        _run_on_ray(ray, fn, chunks, helper.next, batch, retries, finished)
    finally:
        ray.shutdown()


def _processes() -> Any:
    """The multiprocessing context for worker processes: fork where there is one (the workers
    start at once, with everything imported), else spawn."""
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else "spawn")


def _run_on_ray(
    ray: Any,
    fn: Callable[[T], R],
    chunks: list[list[T]],
    first: int,
    batch: int,
    retries: int,
    finished: Callable[[int, list[R]], None],
) -> None:
    """Submit the chunks from ``first`` on as Ray tasks (a bounded number in flight) and hand
    each result to ``finished`` once, as it arrives."""
    if first >= len(chunks):
        return
    remote = ray.remote(max_retries=retries, retry_exceptions=False, num_cpus=1)(_run_chunk)
    cpus = int(ray.cluster_resources().get("CPU", 1))
    window = max(8, 4 * cpus)  # enough queued to keep every CPU busy, not the whole list
    pending: dict[Any, int] = {}
    fn_ref = ray.put(fn)
    next_chunk = first
    try:
        while next_chunk < len(chunks) or pending:
            while next_chunk < len(chunks) and len(pending) < window:
                ref = remote.remote(fn_ref, next_chunk * batch, chunks[next_chunk])
                pending[ref] = next_chunk
                next_chunk += 1
            ready, rest = ray.wait(list(pending), num_returns=1)
            if rest:  # and whatever else has finished meanwhile, in one call
                ready += ray.wait(rest, num_returns=len(rest), timeout=0)[0]
            for ref in ready:
                i = pending.pop(ref)
                finished(i, _ray_result(ray, ref, i * batch, retries))
    finally:
        if pending:  # a failed run leaves nothing running on the cluster
            # only the tasks not yet finished: cancelling one just as it finishes can stop the
            # driver on a check in Ray's core (seen with Ray 2.60 on a loaded machine)
            done = set(ray.wait(list(pending), num_returns=len(pending), timeout=0)[0])
            for ref in pending:
                if ref not in done:
                    ray.cancel(ref, force=True)


def _ray_result(ray: Any, ref: Any, first: int, retries: int) -> Any:
    """The value of a finished Ray task; its failure as TaskError or ClusterError."""
    try:
        return ray.get(ref)
    except ray.exceptions.RayTaskError as e:
        cause = e.cause
        if isinstance(cause, TaskError):
            raise TaskError(cause.index, cause.message) from None
        raise TaskError(first, f"{type(cause).__name__}: {cause}") from None
    except ray.exceptions.RayError as e:
        lines = str(e).strip().splitlines()
        raise ClusterError(
            f"the Ray task from task {first} on was lost {retries + 1} times: "
            f"{lines[0] if lines else type(e).__name__}"
        ) from None
