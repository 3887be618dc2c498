"""The rank, world size, local rank and master address that cluster launchers (mpirun, srun, PMI
launchers) put in the environment, read by env:// where torch's own variables are absent.

Note [Launcher environments]
torch's env:// reads RANK, WORLD_SIZE, MASTER_ADDR and MASTER_PORT (torchrun sets them).  A job
started by mpirun or srun has its own variables instead; env:// also reads them, so that the
same script runs under any launcher.  Precedence, for each value:
  1. the argument (init_process_group's rank/world_size) or the URL query (?rank=...);
  2. torch's variable: RANK, WORLD_SIZE, LOCAL_RANK, MASTER_ADDR;
  3. the launcher's, from ONE launcher - the first of these whose rank variable is set:
       Open MPI (mpirun): OMPI_COMM_WORLD_RANK, OMPI_COMM_WORLD_SIZE, OMPI_COMM_WORLD_LOCAL_RANK
       PMI (MPICH's hydra, Intel MPI, srun --mpi=pmi2): PMI_RANK, PMI_SIZE
       Slurm (srun): SLURM_PROCID, SLURM_NTASKS, SLURM_LOCALID
     The order is from the innermost launcher out: an mpirun inside a Slurm allocation
     inherits the allocation's SLURM_* (the batch step's, the same for every rank) and sets its
     own variables right, so Open MPI's and PMI's win over Slurm's; values are never mixed
     across launchers.
  MASTER_ADDR, when unset under Slurm, is the first host of SLURM_NODELIST (or
  SLURM_JOB_NODELIST): where rank 0 runs with srun's default block distribution.  MASTER_PORT
  has no fallback: the job chooses it.
"""
import os
import re

__all__ = []

# (name, rank variable, size variable, local rank variable or None), in precedence order
_LAUNCHERS = (
    ("Open MPI", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_RANK"),
    ("PMI", "PMI_RANK", "PMI_SIZE", None),
    ("Slurm", "SLURM_PROCID", "SLURM_NTASKS", "SLURM_LOCALID"),
)


def launcher(env=None):
    """(name, rank variable, size variable, local rank variable) of the launcher whose
    variables env:// falls back on, or None."""
    env = os.environ if env is None else env
    for entry in _LAUNCHERS:
        if env.get(entry[1]) is not None:
            return entry
    return None


def lookup(torch_name, env=None):
    """(value, the variable it came from) for torch's RANK / WORLD_SIZE / LOCAL_RANK /
    MASTER_ADDR: torch's variable, else the launcher's (Note [Launcher environments]);
    (None, None) when neither is set."""
    env = os.environ if env is None else env
    v = env.get(torch_name)
    if v is not None:
        return v, torch_name
    entry = launcher(env)
    if entry is None:
        return None, None
    name, rank_var, size_var, local_var = entry
    if torch_name == "MASTER_ADDR":
        if name != "Slurm":
            return None, None
        nodes = env.get("SLURM_NODELIST") or env.get("SLURM_JOB_NODELIST")
        return (first_host(nodes), "SLURM_NODELIST") if nodes else (None, None)
    var = {"RANK": rank_var, "WORLD_SIZE": size_var, "LOCAL_RANK": local_var}.get(torch_name)
    if var is None or env.get(var) is None:
        return None, None
    return env[var], var


def first_host(nodelist):
    """The first host of a Slurm node list: "node[07-09,12],gpu1" -> "node07" (zero padding
    kept), "a1,a2" -> "a1"."""
    s = nodelist.strip()
    depth = 0
    for i, c in enumerate(s):  # the first item at bracket depth 0
        if c == "[":
            depth += 1
        elif c == "]":
            depth -= 1
        elif c == "," and depth == 0:
            s = s[:i]
            break
    out = ""
    while True:
        m = re.match(r"([^\[]*)\[([^\]]*)\](.*)$", s)
        if m is None:
            return out + s
        prefix, body, s = m.groups()
        out += prefix + body.split(",")[0].split("-")[0]
