"""minitorch.distributed.ft: training that goes on when a replica dies or joins.

4 replicas train a small MLP with ft.Manager / ft.DistributedDataParallel / ft.Optimizer and
ft.DistributedSampler over a TCPStore hosted by the test process (the store's host must
survive).  A replica is killed with SIGKILL at a step; the survivors (same processes) redo the
step among themselves and finish, and their weights equal bit for bit those of a run of as
many replicas started from the state saved at that step.  A restarted replica rejoins and
receives the state; a survivor killed during the recovery is left out too; the same over TCP.
Every sample of the epoch is in exactly one committed share.
"""
import os
import pickle
import random
import signal
import subprocess
import sys
import threading
import time
from datetime import timedelta

import pytest

import minitorch as torch
import minitorch.distributed as dist
from minitorch.distributed import ft
from test_distributed_support import RankFailed, run_ranks

N, B, STEPS = 96, 12, 8     # one epoch of 8 steps of a global batch of 12
HERE = os.path.dirname(os.path.abspath(__file__))
_KILL_STEP = random.Random(32).randint(2, 4)   # "a random step", fixed for reproducibility
# where the job's store listens (another host's address in tests/test_distributed_netns.py)
_STORE_ADDR = os.environ.get("FT_TEST_STORE_ADDR", "127.0.0.1")


def _data():
    g = torch.Generator().manual_seed(5)
    return torch.randn(N, 8, generator=g), torch.randn(N, 4, generator=g)


def _model():
    torch.manual_seed(1234 + int(os.environ.get("FT_SEED_OFFSET", "0")))
    return torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.Tanh(), torch.nn.Linear(16, 4))


def _state_bytes(model):
    return {k: v.detach().numpy().tobytes() for k, v in model.state_dict().items()}


class _Job:
    """One replica: model, optimizer, manager, sampler."""

    def __init__(self, replica, port, expected, min_size=1, connect_timeout=4,
                 heartbeat_timeout=5):
        # replicas initialise differently: the first quorum sends position 0's state to all
        os.environ["FT_SEED_OFFSET"] = str(replica)
        self.model = _model()
        self.opt = torch.optim.SGD(self.model.parameters(), lr=0.1, momentum=0.9)
        self.store = dist.TCPStore(_STORE_ADDR, port, is_master=False,
                                   timeout=timedelta(seconds=30))

        def load(sd):
            self.model.load_state_dict(sd["model"])
            self.opt.load_state_dict(sd["optim"])

        def save():
            return {"model": self.model.state_dict(), "optim": self.opt.state_dict()}

        self.manager = ft.Manager(load_state_dict=load, state_dict=save,
                                  min_replica_size=min_size, timeout=timedelta(seconds=20),
                                  connect_timeout=timedelta(seconds=connect_timeout),
                                  store=self.store, replica_id=replica,
                                  expected_replicas=expected,
                                  heartbeat_timeout=timedelta(seconds=heartbeat_timeout))
        self.ddp = ft.DistributedDataParallel(self.manager, self.model)
        self.ftopt = ft.Optimizer(self.manager, self.opt)
        self.sampler = ft.DistributedSampler(N, self.manager, B, shuffle=True, seed=7)
        self.X, self.Y = _data()
        self.log = []       # (step, indices, participants) of committed steps
        self.failed = []    # (step, wall time when the failure was seen)
        self.committed = []  # wall time of each commit

    def step(self, before=None, after_backward=None):
        self.ftopt.zero_grad()
        s = self.manager.current_step()
        if before is not None:
            before(self, s)
        idx = self.sampler.indices()
        ix = torch.tensor(idx)
        loss = torch.nn.functional.mse_loss(self.ddp(self.X[ix]), self.Y[ix])
        loss.backward()
        if after_backward is not None:
            after_backward(self, s)
        self.ftopt.step()
        if self.manager.current_step() > s:
            self.log.append((s, idx, self.manager.num_participants()))
            self.committed.append(time.time())
        else:
            self.failed.append((s, time.time()))

    def train(self, until=STEPS, before=None, after_backward=None):
        while self.manager.current_step() < until:
            self.step(before, after_backward)

    def result(self):
        return {"state": _state_bytes(self.model), "pid": os.getpid(), "log": self.log,
                "failed": self.failed, "committed": self.committed, "step": self.manager.current_step(),
                "participants": self.manager.num_participants(),
                "generation": self.manager.quorum_generation()}


def _save_state(job, path):
    with open(path + ".tmp", "wb") as f:
        torch.save({"model": job.model.state_dict(), "optim": job.opt.state_dict()}, f)
    os.replace(path + ".tmp", path)


def _die(store):
    store.set("test/kill_time", repr(time.time()))
    os.kill(os.getpid(), signal.SIGKILL)


def _job_kill(rank, ws, init_method, port, victim, save_path, rejoin, kill_in_recovery,
              hosts=False):
    if hosts is True:
        # each replica on a "host" of its own: TCP between them, and a dead replica is known
        # by its heartbeat (pids mean nothing across hosts)
        os.environ["MINITORCH_HOST_ID"] = f"host{rank}"
    # hosts="netns": the processes run on hosts made of network namespaces
    # (tests/test_distributed_netns.py), the heartbeat tells about those on the other host
    job = _Job(str(rank), port, ws, heartbeat_timeout=1 if hosts else 5)
    start_pid = os.getpid()
    watch = []
    spawned = []
    # rejoin: True (a replacement started once the survivors have recovered), a delay after the
    # victim's death, or "early" (a replacement made before the death, which enters at once)
    delayed = isinstance(rejoin, float) or rejoin == "early"
    if delayed and rank == victim:
        # a replacement of this replica (its replica id), started and imported now, that
        # enters `rejoin` seconds after this process is gone: while the survivors recover
        _spawn_replacement(str(rank), port, ws, save_path + f".rejoin{rank}", os.getpid(),
                           rejoin)

    def before(job, s):
        m = job.manager
        if s != _KILL_STEP or m.num_participants() != ws:
            return
        if m.participating_rank() == 0:
            _save_state(job, save_path)     # the state the reference run starts from
        if kill_in_recovery is not None and rank == kill_in_recovery and not watch:
            # dies as soon as the round that follows the failure is decided (with it among
            # the members): the others cannot build that round's group and form another
            key = f"minitorch_ft/q/{m.quorum_generation() + 1}/decision"
            st = dist.TCPStore(_STORE_ADDR, port, is_master=False)

            def watcher():
                while not st.check([key]):
                    time.sleep(0.001)
                os.kill(os.getpid(), signal.SIGKILL)
            watch.append(threading.Thread(target=watcher, daemon=True))
            watch[0].start()
        if rank == victim:
            if rejoin == "early":
                job.store.wait(["test/replacement_made"], timedelta(seconds=60))
            _die(job.store)

    def before_rejoin(job, s):
        before(job, s)
        m = job.manager
        if s == _KILL_STEP + 1 and m.num_participants() == ws - 1 and \
                m.participating_rank() == 0 and not spawned:
            # a replacement of the dead replica (its replica id), started once the survivors
            # have recovered; it enters at a coming step boundary
            spawned.append(True)
            _spawn_replacement(str(victim), port, ws, save_path + f".rejoin{victim}")

    if rejoin is True:
        job.train(STEPS - 2, before_rejoin)
    elif delayed:
        job.train(STEPS - 2, before)
    if rejoin is True or delayed:
        # the survivors wait here for the replacement to be a member or to ask in (it
        # enters at the next boundary), so that all four train the last steps
        deadline = time.monotonic() + 120
        while not (job.manager.num_participants() == ws or job.manager.join_pending()) \
                and time.monotonic() < deadline:
            time.sleep(0.01)
    job.train(STEPS, before)
    r = job.result()
    r["same_pid"] = os.getpid() == start_pid
    r["kill_time"] = float(job.store.get("test/kill_time"))
    return r


def _job_kill_to_file(rank, ws, port, victim, save_path, rejoin, out):
    """_job_kill in a process of its own (started on a host of tests/test_distributed_netns.py):
    the result goes to the file `out`."""
    r = _job_kill(rank, ws, None, port, victim, save_path, rejoin, None, hosts="netns")
    with open(out + ".tmp", "wb") as f:
        pickle.dump(r, f)
    os.replace(out + ".tmp", out)


def _spawn_replacement(replica, port, ws, out, after_pid=None, delay=0.0):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    log = open(out + ".log", "wb")      # its output, shown when the test fails
    subprocess.Popen([sys.executable, "-c",
                      "import sys; sys.path.insert(0, %r); import test_distributed_ft"
                      " as t; t._replacement(%r, %d, %d, %r, %r, %r)"
                      % (HERE, replica, port, ws, out, after_pid, delay)],
                     env=env, start_new_session=True, stdout=log, stderr=subprocess.STDOUT)


def _replacement(replica, port, ws, out, after_pid=None, delay=0.0):
    job = None
    if delay == "early":
        # made before the death: its manager already says where it runs, so the survivors'
        # next round waits for it to register
        job, delay = _Job(replica, port, ws), 0.0
        job.store.set("test/replacement_made", "1")
    if after_pid is not None:
        # started (and imported) before its predecessor died: enters `delay` s after the death
        from minitorch.distributed.ft._quorum import _proc_start
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            st = _proc_start(after_pid)
            if st is None or st[0] in ("Z", "X", "x"):
                break
            time.sleep(0.001)
        time.sleep(delay)
    if job is None:
        job = _Job(replica, port, ws)
    job.train(STEPS)
    r = job.result()
    with open(out + ".tmp", "wb") as f:
        pickle.dump(r, f)
    os.replace(out + ".tmp", out)


def _job_reference(rank, ws, init_method, port, save_path, start_step):
    job = _Job(str(rank), port, ws)
    sd = torch.load(save_path)
    job.model.load_state_dict(sd["model"])
    job.opt.load_state_dict(sd["optim"])
    job.manager.load_state_dict({"step": start_step, "batches_committed": 0})
    job.train(STEPS)
    return job.result()


@pytest.fixture
def store():
    s = dist.TCPStore("127.0.0.1", 0, is_master=True, wait_for_workers=False)
    yield s


_REFERENCES = {}


def _reference(save_path, ws):
    """The weights of `ws` replicas trained from the saved state of step _KILL_STEP."""
    with open(save_path, "rb") as f:
        key = (f.read(), ws)
    if key not in _REFERENCES:
        s = dist.TCPStore("127.0.0.1", 0, is_master=True, wait_for_workers=False)
        res = run_ranks(_job_reference, ws, s.port, save_path, _KILL_STEP, timeout=60)
        assert all(r["state"] == res[0]["state"] for r in res)
        _REFERENCES[key] = res[0]["state"]
    return _REFERENCES[key]


def _check_epoch(results):
    """Every sample of the epoch in exactly one committed share."""
    per_step = {}
    for r in results:
        for s, idx, w in r["log"]:
            per_step.setdefault(s, []).extend(idx)
    assert sorted(per_step) == list(range(STEPS))
    seen = sorted(i for idx in per_step.values() for i in idx)
    assert len(seen) == STEPS * B and len(set(seen)) == STEPS * B, seen


def _run_kill(store, tmp_path, env, victim=3, rejoin=False, kill_in_recovery=None,
              hosts=False):
    save = str(tmp_path / "state_at_kill.pt")
    fail = {victim} | ({kill_in_recovery} if kill_in_recovery is not None else set())
    try:
        res = run_ranks(_job_kill, 4, store.port, victim, save, rejoin, kill_in_recovery, hosts,
                        expect_fail=fail, timeout=90, env=env)
    except RankFailed as e:
        log = save + f".rejoin{victim}.log"
        if os.path.exists(log):     # what the replacement said
            with open(log, errors="replace") as f:
                raise RankFailed(f"{e}\n--- the replacement ---\n{f.read()}") from None
        raise
    return save, res


@pytest.mark.parametrize("transport,victim", [("shm", 3), ("tcp", 0)])
def test_killed_replica_survivors_match_reference(store, tmp_path, transport, victim):
    # the victim 0 is the replica at position 0 (the source of state, the one that votes)
    save, res = _run_kill(store, tmp_path, {"MINITORCH_TRANSPORT": transport}, victim=victim)
    survivors = [res[r] for r in range(4) if r != victim]
    assert res[victim] is None
    for r in survivors:
        assert r["same_pid"] and r["step"] == STEPS and r["participants"] == 3
        # the step of the kill failed on every survivor and was redone by three
        assert [s for s, _ in r["failed"]] == [_KILL_STEP]
        assert [w for s, _, w in r["log"]] == [4] * _KILL_STEP + [3] * (STEPS - _KILL_STEP)
        # noticed well within the collectives' 20 s timeout (aborting tells the peers)
        assert r["failed"][0][1] - r["kill_time"] < 10
        assert r["state"] == survivors[0]["state"]
    ref = _reference(save, 3)
    assert survivors[0]["state"] == ref        # bit for bit
    per_step = {}
    for r in survivors:
        for s, idx, w in r["log"]:
            per_step.setdefault(s, []).extend(idx)
    # before the kill each step had four shares, the survivors hold three of them
    for s, idx in per_step.items():
        assert len(idx) == (B * 3 // 4 if s < _KILL_STEP else B), (s, len(idx))


def test_replicas_on_other_hosts(store, tmp_path):
    # every replica a host of its own (MINITORCH_HOST_ID): the survivors cannot look at the
    # dead one's process; its heartbeat stops and the quorum leaves it out after 1 s
    save, res = _run_kill(store, tmp_path, {}, victim=1, hosts=True)
    survivors = [res[r] for r in (0, 2, 3)]
    for r in survivors:
        assert r["same_pid"] and r["step"] == STEPS and r["participants"] == 3
        assert [s for s, _ in r["failed"]] == [_KILL_STEP]
    assert survivors[0]["state"] == survivors[1]["state"] == survivors[2]["state"]
    assert survivors[0]["state"] == _reference(save, 3)


def _check_rejoined(save, res, first_step):
    out = save + ".rejoin3"
    deadline = time.monotonic() + 30
    while not os.path.exists(out) and time.monotonic() < deadline:
        time.sleep(0.05)
    with open(out, "rb") as f:
        back = pickle.load(f)
    assert back["pid"] != res[0]["pid"] and back["step"] == STEPS
    # it joined the running job (never a job of its own from step 0), received the state and
    # trained on
    assert back["log"] and back["log"][0][0] >= first_step and back["participants"] == 4
    for r in res[:3]:
        assert r["same_pid"] and r["participants"] == 4
        assert r["state"] == back["state"]          # all four end bit-identical
    _check_epoch(res[:3] + [back, {"log": [(s, idx, w) for s, idx, w in _dead_shares(res)]}])
    return back


def test_restarted_replica_rejoins_and_receives_state(store, tmp_path):
    save, res = _run_kill(store, tmp_path, {"MINITORCH_TRANSPORT": "shm"}, rejoin=True)
    # started once the survivors had recovered: it entered at a step boundary near the end
    _check_rejoined(save, res, STEPS - 2)


def test_replacement_made_before_the_death_joins_the_recovery_round(store, tmp_path):
    # the replacement's manager exists before its predecessor dies: the survivors' recovery
    # round waits for it, and it enters that round (the step of the kill is redone by four)
    save, res = _run_kill(store, tmp_path, {"MINITORCH_TRANSPORT": "shm"}, rejoin="early")
    back = _check_rejoined(save, res, _KILL_STEP)
    assert back["log"][0][0] == _KILL_STEP and back["log"][0][2] == 4


@pytest.mark.parametrize("delay", [0.0, 0.005, 0.02, 0.05, 0.15, 0.3, 0.6])
def test_replacement_started_during_recovery(store, tmp_path, delay):
    # the replacement (imported beforehand) enters at once or a few ms after its
    # predecessor's death, while the survivors detect it and form their next round: it
    # joins the running job, in that round or at a later step boundary (Note [Quorum in the
    # store]: a newcomer never starts a job of its own once one has run)
    save, res = _run_kill(store, tmp_path, {"MINITORCH_TRANSPORT": "shm"}, rejoin=delay)
    _check_rejoined(save, res, _KILL_STEP)


def _dead_shares(res):
    """The shares the killed replica committed before it died: those of the steps before the
    kill at position 3 of 4 (the sampler's rule gives them)."""
    g = torch.Generator().manual_seed(7)
    order = torch.randperm(N, generator=g).tolist()
    return [(s, order[s * B:(s + 1) * B][3 * B // 4:], 4) for s in range(_KILL_STEP)]


def test_replica_killed_during_recovery(store, tmp_path):
    save, res = _run_kill(store, tmp_path, {"MINITORCH_TRANSPORT": "shm"}, kill_in_recovery=2)
    assert res[2] is None and res[3] is None
    for r in res[:2]:
        assert r["same_pid"] and r["step"] == STEPS and r["participants"] == 2
        assert r["failed"] and r["failed"][0][0] == _KILL_STEP
        # rounds: the first, the one whose group could not be built, the one without rank 2
        assert r["generation"] == 3
        # the build of the second was given up when rank 2 died, not after the 4 s
        # connect_timeout (Note [Building a round's group])
        assert r["committed"][_KILL_STEP] - r["kill_time"] < 4
        assert r["state"] == res[0]["state"]
    assert res[0]["state"] == _reference(save, 2)


def _job_error(rank, ws, init_method, port, error_rank):
    job = _Job(str(rank), port, ws)
    seen = []

    def after_backward(job, s):
        # the step's all-reduce has succeeded everywhere; this replica alone then fails it
        if rank == error_rank and s == _KILL_STEP and not seen:
            seen.append(s)
            job.manager.report_error(RuntimeError("a local failure after the all-reduce"))
    job.train(STEPS, after_backward=after_backward)
    return job.result()


def test_replica_behind_heals_from_a_peer(store):
    # replica 1 does not commit a step that replica 0 commits: replica 0's next step fails
    # (replica 1 aborted the group), the new quorum finds replica 1 one step behind and it
    # receives the state from replica 0; both end bit-identical to an undisturbed run
    res = run_ranks(_job_error, 2, store.port, 1, timeout=60)
    ref_store = dist.TCPStore("127.0.0.1", 0, is_master=True, wait_for_workers=False)
    ref = run_ranks(_job_error, 2, ref_store.port, None, timeout=60)
    assert [s for s, _ in res[1]["failed"]] == [_KILL_STEP]
    assert [s for s, _ in res[0]["failed"]] == [_KILL_STEP + 1]
    assert res[0]["generation"] == res[1]["generation"] == 2
    assert res[0]["state"] == res[1]["state"] == ref[0]["state"] == ref[1]["state"]
    assert not ref[0]["failed"] and not ref[1]["failed"]


def _job_leave(rank, ws, init_method, port):
    job = _Job(str(rank), port, ws)
    job.train(3)
    if rank == 1:
        job.manager.shutdown()      # leaves at a step boundary, the process lives on
        time.sleep(2)
        return job.result()
    job.train(6)
    return job.result()


def test_replica_that_leaves(store):
    res = run_ranks(_job_leave, 3, store.port, timeout=60)
    for r in (res[0], res[2]):
        # the step after the departure fails (the group is aborted) and is redone by two,
        # without waiting for the live process that left
        assert [w for _, _, w in r["log"]] == [3, 3, 3, 2, 2, 2]
        assert r["state"] == res[0]["state"]


def _job_abort(rank, ws, init_method):
    dist.init_process_group("gloo", init_method=init_method, rank=rank, world_size=ws,
                            timeout=timedelta(seconds=20))
    dist.barrier()
    if rank == 0:
        time.sleep(0.3)
        dist.distributed_c10d._get_default_group().abort()
        time.sleep(2.5)     # alive, its group aborted
        return None
    if rank == 2:
        time.sleep(2.5)     # alive, never joins the collective
        return None
    t0 = time.monotonic()
    try:
        dist.all_reduce(torch.ones(4))
        return "no error", 0.0
    except dist.DistBackendError as e:
        return str(e), time.monotonic() - t0


def test_abort_fails_the_peers():
    # what Manager.report_error relies on: rank 1 waits for ranks 0 and 2; rank 2 lives on
    # without joining; rank 0 aborts its group (which closes its transport: the shared-memory
    # lock is released, the TCP connections are closed): rank 1 fails then, as if rank 0 had
    # died, not when rank 2 exits nor at the 20 s timeout
    res = run_ranks(_job_abort, 3, env={"MINITORCH_TRANSPORT": "shm"}, timeout=60)
    msg, took = res[1]
    assert "rank 0" in msg and took < 2, (msg, took)


def test_sampler_rule_and_errors():
    class _M:
        def __init__(self, step, rank, world):
            self.s, self.r, self.w = step, rank, world

        def current_step(self):
            return self.s

        def participating_rank(self):
            return self.r

        def num_participants(self):
            return self.w

    whole = ft.DistributedSampler(10, _M(3, 0, 1), 4, shuffle=False).indices()
    assert whole == [4, 5, 6, 7]     # 10 // 4 = 2 steps an epoch: step 3 is epoch 1's second
    shares = [ft.DistributedSampler(10, _M(3, p, 3), 4, shuffle=False).indices() for p in range(3)]
    assert shares == [[4], [5], [6, 7]]
    with pytest.raises(ValueError):
        ft.DistributedSampler(3, _M(0, 0, 1), 4)
    with pytest.raises(NotImplementedError, match="lighthouse"):
        ft.Manager(lighthouse_addr="x", store=dist.HashStore(), replica_id=0)
    with pytest.raises(NotImplementedError, match="replica groups"):
        ft.Manager(store=dist.HashStore(), replica_id=0, world_size=2)
    with pytest.raises(NotImplementedError):
        ft.Manager(pg=object(), store=dist.HashStore(), replica_id=0)


def test_single_replica_commits():
    s = dist.HashStore()
    model = torch.nn.Linear(3, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    m = ft.Manager(load_state_dict=model.load_state_dict, state_dict=model.state_dict,
                   store=s, replica_id="a", expected_replicas=1)
    try:
        d = ft.DistributedDataParallel(m, model)
        o = ft.Optimizer(m, opt)
        before = model.weight.detach().clone()
        o.zero_grad()
        d(torch.ones(2, 3)).sum().backward()
        g = model.weight.grad.clone()
        o.step()
        assert m.current_step() == 1 and m.num_participants() == 1
        assert torch.equal(model.weight.detach(), before - 0.1 * g)
        # the sampler's iterator: the rest of the epoch (10 samples, global batch 4: 2 steps
        # an epoch, step 1 left), the whole batch for the only replica
        sampler = ft.DistributedSampler(10, m, 4, shuffle=False)
        seen = []
        for idx in sampler:
            seen.append(idx)
            o.zero_grad()
            d(torch.ones(len(idx), 3)).sum().backward()
            o.step()
        assert seen == [[4, 5, 6, 7]] and m.current_step() == 2
    finally:
        m.shutdown()


def _gone_process():
    """The identity of a process that has exited (a decision naming it names a dead one)."""
    from minitorch.distributed.ft._quorum import host_key
    p = subprocess.Popen([sys.executable, "-c", "pass"])
    p.wait()
    return [host_key(), p.pid, 1]


def test_latest_round_comes_from_the_decisions():
    from minitorch.distributed.ft._quorum import Quorum
    s = dist.HashStore()
    q = Quorum(s, "a", 1, 1, 0.0, 0.05, 5.0)
    try:
        assert q.latest() == 0
        d1 = q.form(1, None, 0, True, time.monotonic() + 10)
        assert d1["members"] == ["a"] and q.latest() == 1
        assert int(s.add("gen", 0)) == 1
        s.add("gen", 2)             # a hint past the latest decision: not believed
        assert q.latest() == 1
        s.set("gen", "0")           # a hint behind it: the decisions say
        assert q.latest() == 1
        d2 = q.form(2, d1, 1, False, time.monotonic() + 10)
        assert d2["members"] == ["a"] and q.latest() == 2 and int(s.add("gen", 0)) == 2
    finally:
        q.stop()


def test_identical_proposals_have_one_winner():
    # both participants propose the same members at the same time: one proposal is stored,
    # and the hint of the latest round is raised once, to that round
    from minitorch.distributed.ft._quorum import Quorum
    for _ in range(10):
        s = dist.HashStore()
        qs = [Quorum(s, r, 2, 2, 30.0, 0.05, 5.0) for r in ("a", "b")]
        got = [None, None]

        def form(i):
            got[i] = qs[i].form(1, None, 0, True, time.monotonic() + 10)
        ths = [threading.Thread(target=form, args=(i,)) for i in range(2)]
        for t in ths:
            t.start()
        for t in ths:
            t.join()
        for q in qs:
            q.stop()
        assert got[0] == got[1] and got[0]["members"] == ["a", "b"]
        assert int(s.add("gen", 0)) == 1 and qs[0].latest() == 1


def test_newcomer_does_not_start_a_job_of_its_own():
    # the running job's processes are all gone: a newcomer, or a restarted process of a
    # member, raises instead of forming a quorum alone from its own state at step 0
    from minitorch.distributed.ft._quorum import Quorum
    s = dist.HashStore()
    d1 = {"g": 1, "members": ["0"], "join": 0, "steps": {"0": 5}, "who": {"0": _gone_process()}}
    import json
    s.set("q/1/decision", json.dumps(d1))
    s.set("gen", "1")
    for rid in ("1", "0"):
        q = Quorum(s, rid, 1, 2, 0.0, 0.05, 5.0)
        try:
            assert q.latest() == 1
            with pytest.raises(RuntimeError, match="does not start one of its own"):
                q.form(2, q.decision(1), 0, True, time.monotonic() + 10)
            with pytest.raises(RuntimeError, match="never starts one"):
                q.form(3, None, 0, True, time.monotonic() + 10)
        finally:
            q.stop()
    assert q.decision(2) is None
