"""minitorch.hub: models and weights published as torch.hub publishes them.

A hub repository is a directory (source="local") or a GitHub repository (source="github",
"owner/repo[:ref]", downloaded as a zip into the hub directory) with a hubconf.py whose public
callables are the entry points and whose `dependencies` list names the modules it needs.
Weights come by URL into <hub dir>/checkpoints (load_state_dict_from_url; a file name's
"-<hex>." part is a prefix of its SHA-256 when check_hash) and load with minitorch.load, which
reads torch's checkpoint format.  The hub directory is torch's: $TORCH_HOME/hub, else
$XDG_CACHE_HOME/torch/hub, else ~/.cache/torch/hub, so downloads are shared with torch."""
import hashlib
import importlib.util
import os
import re
import shutil
import sys
import tempfile
import uuid
import warnings
import zipfile
from urllib.parse import urlparse
from urllib.request import Request, urlopen

__all__ = ["download_url_to_file", "get_dir", "help", "list", "load", "load_state_dict_from_url",
           "set_dir"]

ENV_TORCH_HOME = "TORCH_HOME"
ENV_XDG_CACHE_HOME = "XDG_CACHE_HOME"
ENV_GITHUB_TOKEN = "GITHUB_TOKEN"
DEFAULT_CACHE_DIR = "~/.cache"
VAR_DEPENDENCY = "dependencies"
MODULE_HUBCONF = "hubconf.py"
READ_DATA_CHUNK = 128 * 1024
HASH_REGEX = re.compile(r"-([a-f0-9]*)\.")

_hub_dir = None


def get_dir():
    """The directory models and weights are kept in (set_dir, else torch's default)."""
    if _hub_dir is not None:
        return _hub_dir
    home = os.path.expanduser(os.getenv(ENV_TORCH_HOME, os.path.join(
        os.getenv(ENV_XDG_CACHE_HOME, DEFAULT_CACHE_DIR), "torch")))
    return os.path.join(home, "hub")


def set_dir(d):
    global _hub_dir
    _hub_dir = os.path.expanduser(os.fspath(d))


def download_url_to_file(url, dst, hash_prefix=None, progress=True):
    """Downloads url to dst (through a temporary file next to it); with hash_prefix, the
    SHA-256 of the content must start with it."""
    req = Request(url, headers={"User-Agent": "minitorch.hub"})
    dst = os.path.expanduser(os.fspath(dst))
    tmp = f"{dst}.{uuid.uuid4().hex}.partial"
    sha = hashlib.sha256() if hash_prefix is not None else None
    try:
        with urlopen(req) as u, open(tmp, "wb") as f:
            while True:
                chunk = u.read(READ_DATA_CHUNK)
                if not chunk:
                    break
                f.write(chunk)
                if sha is not None:
                    sha.update(chunk)
        if sha is not None:
            digest = sha.hexdigest()
            if digest[:len(hash_prefix)] != hash_prefix:
                raise RuntimeError(f'invalid hash value (expected "{hash_prefix}", got '
                                   f'"{digest}")')
        shutil.move(tmp, dst)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


def load_state_dict_from_url(url, model_dir=None, map_location=None, progress=True,
                             check_hash=False, file_name=None, weights_only=False):
    """The object saved at url (downloaded once into <hub dir>/checkpoints), loaded with
    minitorch.load."""
    if os.getenv("TORCH_MODEL_ZOO"):
        warnings.warn("TORCH_MODEL_ZOO is deprecated, please use env TORCH_HOME instead",
                      stacklevel=2)
    model_dir = model_dir or os.path.join(get_dir(), "checkpoints")
    os.makedirs(model_dir, exist_ok=True)
    filename = file_name or os.path.basename(urlparse(url).path)
    cached = os.path.join(model_dir, filename)
    if not os.path.exists(cached):
        sys.stderr.write(f'Downloading: "{url}" to {cached}\n')
        prefix = None
        if check_hash:
            m = HASH_REGEX.search(filename)
            prefix = m.group(1) if m else None
        download_url_to_file(url, cached, prefix, progress=progress)
    import minitorch
    return minitorch.load(cached, map_location=map_location, weights_only=weights_only)


# ---- repositories ------------------------------------------------------------------------

def _parse_github(github):
    ref = None
    if ":" in github:
        github, ref = github.split(":", 1)
    if "/" not in github:
        raise ValueError(f'Invalid input: repo_or_dir="{github}" should be of the form '
                         '"repo_owner/repo_name[:ref]"')
    owner, name = github.split("/", 1)
    return owner, name, ref


def _github_dir(github, force_reload, verbose):
    owner, name, ref = _parse_github(github)
    hub = get_dir()
    os.makedirs(hub, exist_ok=True)
    refs = [ref] if ref else ["main", "master"]
    for r in refs:
        repo_dir = os.path.join(hub, "_".join([owner, name, r.replace("/", "_")]))
        if os.path.exists(repo_dir) and not force_reload:
            if verbose:
                sys.stderr.write(f"Using cache found in {repo_dir}\n")
            return repo_dir
        url = f"https://github.com/{owner}/{name}/zipball/{r}"
        cached = os.path.join(hub, f"{r.replace('/', '_')}.zip")
        try:
            if verbose:
                sys.stderr.write(f'Downloading: "{url}" to {cached}\n')
            download_url_to_file(url, cached, progress=False)
        except Exception:
            if r == refs[-1]:
                raise
            continue
        with zipfile.ZipFile(cached) as z:
            top = z.infolist()[0].filename.split("/")[0]
            shutil.rmtree(repo_dir, ignore_errors=True)
            with tempfile.TemporaryDirectory(dir=hub) as tmp:
                z.extractall(tmp)
                shutil.move(os.path.join(tmp, top), repo_dir)
        os.remove(cached)
        return repo_dir
    raise RuntimeError(f"cannot download {github}")


def _repo_dir(repo_or_dir, source, force_reload, verbose, trust_repo):
    if source not in ("github", "local"):
        raise ValueError(f'Unknown source: "{source}". Allowed values: "github" | "local".')
    if source == "local":
        return os.fspath(repo_or_dir)
    if trust_repo is False:
        raise Exception(f"Untrusted repository: {repo_or_dir} (trust_repo=False)")  # noqa: TRY002
    return _github_dir(repo_or_dir, force_reload, verbose)


def _import_hubconf(repo_dir):
    path = os.path.join(repo_dir, MODULE_HUBCONF)
    if not os.path.isfile(path):
        raise FileNotFoundError(f"{MODULE_HUBCONF} not found in {repo_dir}")
    sys.path.insert(0, repo_dir)
    try:
        spec = importlib.util.spec_from_file_location(f"hubconf_{uuid.uuid4().hex}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(repo_dir)
    deps = getattr(module, VAR_DEPENDENCY, None)
    if deps:
        missing = [d for d in deps if importlib.util.find_spec(d) is None]
        if missing:
            raise RuntimeError(f"Missing dependencies: {', '.join(missing)}")
    return module


def _entry(module, model):
    if not isinstance(model, str):
        raise ValueError("Invalid input: model should be a string of function name")
    fn = getattr(module, model, None)
    if fn is None or not callable(fn):
        raise RuntimeError(f"Cannot find callable {model} in hubconf")
    return fn


def list(github, force_reload=False, skip_validation=False, trust_repo="check", verbose=True):
    """The entry points of a GitHub repository's hubconf.py (a local directory's too)."""
    source = "local" if os.path.isdir(os.fspath(github)) else "github"
    module = _import_hubconf(_repo_dir(github, source, force_reload, verbose, trust_repo))
    return [n for n in dir(module) if callable(getattr(module, n)) and not n.startswith("_")]


def help(github, model, force_reload=False, skip_validation=False, trust_repo="check"):
    """The docstring of an entry point."""
    source = "local" if os.path.isdir(os.fspath(github)) else "github"
    module = _import_hubconf(_repo_dir(github, source, force_reload, True, trust_repo))
    return _entry(module, model).__doc__


def load(repo_or_dir, model, *args, source="github", trust_repo="check", force_reload=False,
         verbose=True, skip_validation=False, **kwargs):
    """Calls the entry point `model` of the repository's hubconf.py with args and kwargs."""
    source = source.lower() if isinstance(source, str) else source
    repo_dir = _repo_dir(repo_or_dir, source, force_reload, verbose, trust_repo)
    module = _import_hubconf(repo_dir)
    sys.path.insert(0, repo_dir)
    try:
        return _entry(module, model)(*args, **kwargs)
    finally:
        if repo_dir in sys.path:
            sys.path.remove(repo_dir)

