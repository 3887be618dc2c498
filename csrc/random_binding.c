/* csrc/random_binding.c - minitorch.Generator, default_generator and the random fill kernels. */
#include "csrc/common.h"

#include <sys/random.h>
#include <time.h>

#include "aten_lite/random.h"
#include "c10_lite/allocator.h"
#include "c10_lite/cuda_state.h"

/* Note [Random bindings]
 * The Generator type lives here; the torch-shaped functions (rand, randn,
 * normal, multinomial, Tensor.uniform_, ...) are written in
 * python/minitorch/_random.py on top of the private kernels below, which
 * take a generator or None (the default generator).  Parameters are checked
 * in Python with torch's messages; the kernels check dtypes and probability
 * values.  Fills of many elements run with the GIL released: the generator's
 * offset is reserved atomically (see Note [Counter-based random numbers]) and
 * the call holds a reference to the generator object. */

typedef struct {
    PyObject_HEAD
    mt_generator gen;
    uint64_t initial_seed;
    mt_device device; /* the cpu, or a CUDA device (index resolved) */
} MTGeneratorObject;

static PyTypeObject *mt__Generator_Type;
static PyObject *mt__default_generator; /* strong reference, also a module attribute */

/* Note [Thread default generators]
 * A thread may have a default generator of its own (DataLoader thread workers do, so that the
 * per-sample seeding of one worker does not reseed the generator the main thread and the
 * other workers draw from).  It replaces mt__default_generator for every `generator=None` of
 * this OS thread while set; _set_thread_generator(g) installs it (a strong reference, owned
 * by the thread: the thread sets None before it ends) and _thread_generator() reads it. */
static _Thread_local PyObject *mt__thread_generator;
/* Note [CUDA generators]
 * As torch, each CUDA device has its default generator, used by the random ops on its tensors
 * when no generator= is given.  They are made on first use (no CUDA call: a generator is two
 * numbers), seeded with the seed of the last manual_seed_all (torch.manual_seed seeds them
 * too), or torch's default seed.  The draws are the cpu's functions of (seed, offset) (Note
 * [One random stream on every device] in aten_lite/random_math.h), so after one seed, the
 * same calls on the cpu and on a device give the same numbers. */
static PyObject *mt__cuda_generators[MT_CUDA_MAX_DEVICES]; /* strong references, or NULL */
static uint64_t mt__cuda_seed_all = MT_DEFAULT_SEED;

#define MT__RANDOM_NOGIL_MIN 16384

static void
mt__gen_seed(MTGeneratorObject *g, uint64_t seed)
{
    g->initial_seed = seed;
    mt_generator_manual_seed(&g->gen, seed);
}

static PyObject *
generator_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"device", NULL};
    PyObject *dev = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|O:Generator", kwlist, &dev)) {
        return NULL;
    }
    mt_device d = MT_DEVICE_CPU;
    if (dev != NULL && dev != Py_None) {
        if (mt__device_from_py(dev, &d) < 0) {
            return NULL;
        }
        if (d.type != MT_CPU && d.type != MT_CUDA) {
            char name[16] = {0};
            const char *n = mt_device_type_name(d.type);
            for (size_t i = 0; i + 1 < sizeof(name) && n[i] != '\0'; i++) {
                name[i] = (char)(n[i] >= 'a' && n[i] <= 'z' ? n[i] - 'a' + 'A' : n[i]);
            }
            PyErr_Format(PyExc_RuntimeError, "%s device type not an accelerator.", name);
            return NULL;
        }
        if (d.type == MT_CUDA) {
            int rc = mt_device_resolve(&d);
            if (rc < 0) {
                return mt__raise(rc);
            }
        }
    }
    MTGeneratorObject *self = (MTGeneratorObject *)type->tp_alloc(type, 0);
    if (self == NULL) {
        return NULL;
    }
    self->device = d;
    mt__gen_seed(self, MT_DEFAULT_SEED);
    return (PyObject *)self;
}

static void
generator_dealloc(PyObject *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    tp->tp_free(self);
    Py_DECREF(tp);
}

/* A seed from an int: values in [-2^63, 2^64) wrap to uint64 (as torch).
 * Returns 0 or -1 with an exception. */
static int
mt__seed_from_py(PyObject *o, uint64_t *out)
{
    if (PyBool_Check(o) || !PyIndex_Check(o)) {
        PyErr_Format(PyExc_TypeError, "manual_seed expected a long, but got %s", Py_TYPE(o)->tp_name);
        return -1;
    }
    PyObject *n = PyNumber_Index(o);
    if (n == NULL) {
        return -1;
    }
    unsigned long long u = PyLong_AsUnsignedLongLong(n);
    if (u == (unsigned long long)-1 && PyErr_Occurred()) {
        PyErr_Clear();
        long long s = PyLong_AsLongLong(n);
        if (s == -1 && PyErr_Occurred()) {
            Py_DECREF(n);
            PyErr_SetString(PyExc_RuntimeError, "Overflow when unpacking long");
            return -1;
        }
        u = (unsigned long long)s;
    }
    Py_DECREF(n);
    *out = (uint64_t)u;
    return 0;
}

PyDoc_STRVAR(generator_manual_seed_doc,
             "manual_seed(seed) -> Generator\n--\n\n"
             "Seeds the generator (and rewinds its stream); returns the generator.");

static PyObject *
generator_manual_seed(PyObject *self, PyObject *seed)
{
    uint64_t s;
    if (mt__seed_from_py(seed, &s) < 0) {
        return NULL;
    }
    mt__gen_seed((MTGeneratorObject *)self, s);
    return Py_NewRef(self);
}

static uint64_t
mt__nondeterministic_seed(void)
{
    uint64_t s = 0;
    if (getrandom(&s, sizeof(s), 0) != (ssize_t)sizeof(s)) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        s = ((uint64_t)ts.tv_sec * UINT64_C(1000000007)) ^ (uint64_t)ts.tv_nsec ^
            ((uint64_t)(uintptr_t)&s << 16);
    }
    return s;
}

PyDoc_STRVAR(generator_seed_doc, "seed() -> int\n--\n\n"
                                 "Seeds the generator from the OS entropy source; returns the seed.");

static PyObject *
generator_seed(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    uint64_t s = mt__nondeterministic_seed();
    mt__gen_seed((MTGeneratorObject *)self, s);
    return PyLong_FromUnsignedLongLong(s);
}

static PyObject *
generator_initial_seed(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    return PyLong_FromUnsignedLongLong(((MTGeneratorObject *)self)->initial_seed);
}

PyDoc_STRVAR(generator_get_state_doc,
             "get_state() -> Tensor\n--\n\n"
             "The generator's state as a uint8 tensor (version tag, seed, offset).");

static PyObject *
generator_get_state(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    int64_t n = MT_GENERATOR_STATE_SIZE;
    mt_tensor *t = mt_tensor_empty(MT_UINT8, 1, &n, MT_DEVICE_CPU);
    if (t == NULL) {
        return mt__raise(0);
    }
    mt_generator_get_state(&((MTGeneratorObject *)self)->gen, (uint8_t *)mt_tensor_data(t));
    return mt__tensor_wrap(t);
}

PyDoc_STRVAR(generator_set_state_doc,
             "set_state(new_state) -> Generator\n--\n\n"
             "Restores a state returned by get_state(); returns the generator.");

static PyObject *
generator_set_state(PyObject *self, PyObject *state)
{
    if (!mt__tensor_check(state)) {
        PyErr_Format(PyExc_TypeError, "expected a torch.ByteTensor, but got %s", Py_TYPE(state)->tp_name);
        return NULL;
    }
    mt_tensor *t = mt__tensor_impl(state);
    if (t->dtype != MT_UINT8) {
        PyErr_Format(PyExc_TypeError, "expected a torch.ByteTensor, but got a tensor of dtype %s",
                     mt_dtype_name(t->dtype));
        return NULL;
    }
    if (mt_tensor_device(t).type != MT_CPU) {
        PyErr_SetString(PyExc_TypeError, "RNG state must be a torch.ByteTensor");
        return NULL;
    }
    mt_tensor *c = mt_contiguous(t);
    if (c == NULL) {
        return mt__raise(0);
    }
    int rc = mt_generator_set_state(&((MTGeneratorObject *)self)->gen,
                                    (const uint8_t *)mt_tensor_data(c), c->numel);
    mt_tensor_decref(c);
    if (rc < 0) {
        PyErr_SetString(PyExc_RuntimeError, mt_error_message());
        return NULL;
    }
    /* as torch: initial_seed() is now the seed the state was made from */
    ((MTGeneratorObject *)self)->initial_seed = atomic_load(&((MTGeneratorObject *)self)->gen.seed);
    return Py_NewRef(self);
}

static PyObject *
generator_get_device(PyObject *self, void *Py_UNUSED(closure))
{
    return mt__device_object(((MTGeneratorObject *)self)->device);
}

static PyObject *
generator_repr(PyObject *self)
{
    return PyUnicode_FromFormat("<minitorch._C.Generator object at %p>", self);
}

static PyMethodDef generator_methods[] = {
    {"manual_seed", generator_manual_seed, METH_O, generator_manual_seed_doc},
    {"seed", generator_seed, METH_NOARGS, generator_seed_doc},
    {"initial_seed", generator_initial_seed, METH_NOARGS,
     "initial_seed() -> int\n--\n\nThe seed the generator was last seeded with."},
    {"get_state", generator_get_state, METH_NOARGS, generator_get_state_doc},
    {"set_state", generator_set_state, METH_O, generator_set_state_doc},
    {NULL},
};

static PyGetSetDef generator_getset[] = {
    {"device", generator_get_device, NULL, "The device of the generator (cpu or cuda:i).", NULL},
    {NULL},
};

static PyType_Slot generator_slots[] = {
    {Py_tp_new, generator_new},
    {Py_tp_dealloc, generator_dealloc},
    {Py_tp_repr, generator_repr},
    {Py_tp_methods, generator_methods},
    {Py_tp_getset, generator_getset},
    {Py_tp_doc, "Generator(device='cpu')\n--\n\n"
                "A counter-based (Philox4x32-10) random number generator; see manual_seed."},
    {0, NULL},
};

static PyType_Spec generator_spec = {
    .name = "minitorch._C.Generator",
    .basicsize = sizeof(MTGeneratorObject),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE,
    .slots = generator_slots,
};

/* The default generator of CUDA device `index` (borrowed), made on first use, or NULL with
 * an exception (an index out of range). */
static MTGeneratorObject *
mt__cuda_generator(int index)
{
    if (index < 0 || index >= MT_CUDA_MAX_DEVICES) {
        PyErr_Format(PyExc_RuntimeError, "CUDA error: invalid device ordinal");
        return NULL;
    }
    if (mt__cuda_generators[index] == NULL) {
        MTGeneratorObject *g = (MTGeneratorObject *)PyObject_CallNoArgs((PyObject *)mt__Generator_Type);
        if (g == NULL) {
            return NULL;
        }
        g->device = (mt_device){.type = MT_CUDA, .index = index};
        mt__gen_seed(g, mt__cuda_seed_all);
        mt__cuda_generators[index] = (PyObject *)g;
    }
    return (MTGeneratorObject *)mt__cuda_generators[index];
}

/* The generator of a `generator=` argument for a tensor on device d (borrowed): None -> the
 * default generator of d; a generator of another device type is torch's RuntimeError. */
static MTGeneratorObject *
mt__generator_arg_on(PyObject *o, mt_device d, const char *fname)
{
    if (o == NULL || o == Py_None) {
        if (d.type == MT_CUDA) {
            return mt__cuda_generator(d.index);
        }
        return (MTGeneratorObject *)(mt__thread_generator != NULL ? mt__thread_generator
                                                                   : mt__default_generator);
    }
    if (!PyObject_TypeCheck(o, mt__Generator_Type)) {
        PyErr_Format(PyExc_TypeError, "%s(): argument 'generator' must be torch.Generator, not %s",
                     fname, Py_TYPE(o)->tp_name);
        return NULL;
    }
    MTGeneratorObject *g = (MTGeneratorObject *)o;
    if (g->device.type != d.type) {
        PyErr_Format(PyExc_RuntimeError, "Expected a '%s' device type for generator but found '%s'",
                     mt_device_type_name(d.type), mt_device_type_name(g->device.type));
        return NULL;
    }
    return g;
}

/* The generator of a `generator=` argument for the cpu (borrowed): None -> the default. */
static MTGeneratorObject *
mt__generator_arg(PyObject *o, const char *fname)
{
    return mt__generator_arg_on(o, MT_DEVICE_CPU, fname);
}

/* A new reference to o's impl (taken after the other arguments are parsed,
 * since parsing them may run Python code: Note [Impls across Python code and
 * the GIL]), or NULL with TypeError. */
static mt_tensor *
mt__tensor_arg(PyObject *o, const char *fname, const char *what)
{
    if (o == NULL || !mt__tensor_check(o)) {
        PyErr_Format(PyExc_TypeError, "%s(): argument '%s' must be Tensor, not %s", fname, what,
                     o ? Py_TYPE(o)->tp_name : "None");
        return NULL;
    }
    return mt__tensor_impl_ref(o);
}

/* Runs a status-returning kernel call on t (held by the caller), without the
 * GIL when t is large; drops the caller's reference to t afterwards. */
#define MT__MAYBE_NOGIL(t, rc, call)              \
    do {                                          \
        if ((t)->numel >= MT__RANDOM_NOGIL_MIN) { \
            Py_BEGIN_ALLOW_THREADS                \
            rc = (call);                          \
            Py_END_ALLOW_THREADS                  \
        }                                         \
        else {                                    \
            rc = (call);                          \
        }                                         \
        mt_tensor_decref(t);                      \
    } while (0)

/* _random_fill_(self, dist, a, b, generator) -> self */
static PyObject *
mt_py_random_fill_(PyObject *Py_UNUSED(m), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "_random_fill_(self, dist, a, b, generator)");
        return NULL;
    }
    long dist = PyLong_AsLong(args[1]);
    double a = PyFloat_AsDouble(args[2]), b = PyFloat_AsDouble(args[3]);
    if (PyErr_Occurred()) {
        return NULL;
    }
    if (dist < MT_RAND_UNIFORM || dist > MT_RAND_LOG_NORMAL) {
        PyErr_SetString(PyExc_ValueError, "_random_fill_: unknown distribution");
        return NULL;
    }
    mt_tensor *t = mt__tensor_arg(args[0], "_random_fill_", "self");
    if (t == NULL) {
        return NULL;
    }
    MTGeneratorObject *g = mt__generator_arg_on(args[4], mt_tensor_device(t), "_random_fill_");
    if (g == NULL) {
        mt_tensor_decref(t);
        return NULL;
    }
    Py_INCREF(g);
    int rc;
    MT__MAYBE_NOGIL(t, rc, mt_random_fill_(t, &g->gen, (mt_rand_dist)dist, a, b));
    Py_DECREF(g);
    if (rc < 0) {
        return mt__raise(rc);
    }
    return Py_NewRef(args[0]);
}

/* _random_int_(self, from, range, generator) -> self; range in [0, 2^64), 0 meaning 2^64 */
static PyObject *
mt_py_random_int_(PyObject *Py_UNUSED(m), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "_random_int_(self, from, range, generator)");
        return NULL;
    }
    long long from = PyLong_AsLongLong(args[1]);
    if (from == -1 && PyErr_Occurred()) {
        return NULL;
    }
    unsigned long long range = PyLong_AsUnsignedLongLong(args[2]);
    if (range == (unsigned long long)-1 && PyErr_Occurred()) {
        return NULL;
    }
    mt_tensor *t = mt__tensor_arg(args[0], "_random_int_", "self");
    if (t == NULL) {
        return NULL;
    }
    MTGeneratorObject *g = mt__generator_arg_on(args[3], mt_tensor_device(t), "_random_int_");
    if (g == NULL) {
        mt_tensor_decref(t);
        return NULL;
    }
    Py_INCREF(g);
    int rc;
    MT__MAYBE_NOGIL(t, rc, mt_random_int_(t, &g->gen, (int64_t)from, (uint64_t)range));
    Py_DECREF(g);
    if (rc < 0) {
        return mt__raise(rc);
    }
    return Py_NewRef(args[0]);
}

/* _bernoulli_tensor_(self, p, generator) -> self */
static PyObject *
mt_py_bernoulli_tensor_(PyObject *Py_UNUSED(m), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "_bernoulli_tensor_(self, p, generator)");
        return NULL;
    }
    mt_tensor *t = mt__tensor_arg(args[0], "bernoulli_", "self");
    mt_tensor *p = t ? mt__tensor_arg(args[1], "bernoulli_", "p") : NULL;
    MTGeneratorObject *g = p ? mt__generator_arg_on(args[2], mt_tensor_device(t), "bernoulli_") : NULL;
    if (g == NULL) {
        mt_tensor_decref(t);
        mt_tensor_decref(p);
        return NULL;
    }
    Py_INCREF(g);
    int rc;
    MT__MAYBE_NOGIL(t, rc, mt_bernoulli_tensor_(t, &g->gen, p));
    mt_tensor_decref(p);
    Py_DECREF(g);
    if (rc < 0) {
        return mt__raise(rc);
    }
    return Py_NewRef(args[0]);
}

/* _randperm(n, dtype, generator) -> Tensor */
static PyObject *
mt_py_randperm(PyObject *Py_UNUSED(m), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "_randperm(n, dtype, generator)");
        return NULL;
    }
    int64_t n;
    mt_dtype dt;
    if (mt__int64_from_py(args[0], &n, "randperm", "n") < 0 ||
        mt__dtype_from_py(args[1], &dt, "dtype") < 0) {
        return NULL;
    }
    /* any device's generator: the permutation is drawn on the cpu from its stream (the
     * caller moves it to the generator's device) */
    MTGeneratorObject *g =
        args[2] != Py_None && PyObject_TypeCheck(args[2], mt__Generator_Type)
            ? (MTGeneratorObject *)args[2]
            : mt__generator_arg(args[2], "randperm");
    if (g == NULL) {
        return NULL;
    }
    Py_INCREF(g);
    mt_tensor *r;
    if (n >= MT__RANDOM_NOGIL_MIN) {
        Py_BEGIN_ALLOW_THREADS
        r = mt_randperm(n, dt, &g->gen);
        Py_END_ALLOW_THREADS
    }
    else {
        r = mt_randperm(n, dt, &g->gen);
    }
    Py_DECREF(g);
    return mt__tensor_wrap(r);
}

/* _poisson(rates, generator) -> Tensor */
static PyObject *
mt_py_poisson(PyObject *Py_UNUSED(m), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "_poisson(rates, generator)");
        return NULL;
    }
    mt_tensor *p = mt__tensor_arg(args[0], "poisson", "input");
    MTGeneratorObject *g = p ? mt__generator_arg_on(args[1], mt_tensor_device(p), "poisson") : NULL;
    if (g == NULL) {
        mt_tensor_decref(p);
        return NULL;
    }
    Py_INCREF(g);
    mt_tensor *r;
    if (p->numel >= MT__RANDOM_NOGIL_MIN / 16) {
        Py_BEGIN_ALLOW_THREADS
        r = mt_poisson(p, &g->gen);
        Py_END_ALLOW_THREADS
    }
    else {
        r = mt_poisson(p, &g->gen);
    }
    mt_tensor_decref(p);
    Py_DECREF(g);
    return mt__tensor_wrap(r);
}

/* _multinomial(probs, num_samples, replacement, generator) -> int64 Tensor */
static PyObject *
mt_py_multinomial(PyObject *Py_UNUSED(m), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "_multinomial(probs, num_samples, replacement, generator)");
        return NULL;
    }
    int64_t n;
    if (mt__int64_from_py(args[1], &n, "multinomial", "num_samples") < 0) {
        return NULL;
    }
    int repl = PyObject_IsTrue(args[2]);
    mt_tensor *p = repl < 0 ? NULL : mt__tensor_arg(args[0], "multinomial", "input");
    MTGeneratorObject *g = p ? mt__generator_arg_on(args[3], mt_tensor_device(p), "multinomial") : NULL;
    if (g == NULL) {
        mt_tensor_decref(p);
        return NULL;
    }
    Py_INCREF(g);
    mt_tensor *r;
    if (p->numel >= MT__RANDOM_NOGIL_MIN) {
        Py_BEGIN_ALLOW_THREADS
        r = mt_multinomial(p, n, repl, &g->gen);
        Py_END_ALLOW_THREADS
    }
    else {
        r = mt_multinomial(p, n, repl, &g->gen);
    }
    mt_tensor_decref(p);
    Py_DECREF(g);
    return mt__tensor_wrap(r);
}

/* _cuda_default_generator(index) -> the default generator of CUDA device index */
static PyObject *
mt_py_cuda_default_generator(PyObject *Py_UNUSED(m), PyObject *index)
{
    long i = PyLong_AsLong(index);
    if (i == -1 && PyErr_Occurred()) {
        return NULL;
    }
    MTGeneratorObject *g = mt__cuda_generator((int)i);
    return g ? Py_NewRef((PyObject *)g) : NULL;
}

/* _cuda_manual_seed_all(seed): seeds every CUDA default generator, made or to be made */
static PyObject *
mt_py_cuda_manual_seed_all(PyObject *Py_UNUSED(m), PyObject *seed)
{
    uint64_t s;
    if (mt__seed_from_py(seed, &s) < 0) {
        return NULL;
    }
    mt__cuda_seed_all = s;
    for (int i = 0; i < MT_CUDA_MAX_DEVICES; i++) {
        if (mt__cuda_generators[i] != NULL) {
            mt__gen_seed((MTGeneratorObject *)mt__cuda_generators[i], s);
        }
    }
    Py_RETURN_NONE;
}

#define FAST(name) (PyCFunction)(void (*)(void))name, METH_FASTCALL

/* _set_thread_generator(g or None): see Note [Thread default generators]. */
static PyObject *
mt_py_set_thread_generator(PyObject *self, PyObject *arg)
{
    (void)self;
    if (arg != Py_None && !PyObject_TypeCheck(arg, mt__Generator_Type)) {
        PyErr_Format(PyExc_TypeError, "_set_thread_generator(): expected a Generator or None, not %s",
                     Py_TYPE(arg)->tp_name);
        return NULL;
    }
    PyObject *old = mt__thread_generator;
    mt__thread_generator = arg == Py_None ? NULL : Py_NewRef(arg);
    Py_XDECREF(old);
    Py_RETURN_NONE;
}

/* _thread_generator(): the calling thread's default generator (the process's when it has
 * none of its own); a new reference. */
static PyObject *
mt_py_thread_generator(PyObject *self, PyObject *unused)
{
    (void)self;
    (void)unused;
    return Py_NewRef(mt__thread_generator != NULL ? mt__thread_generator : mt__default_generator);
}

static PyMethodDef mt_random_functions[] = {
    {"_set_thread_generator", mt_py_set_thread_generator, METH_O,
     "_set_thread_generator(g): the default generator of the calling thread (None: the process's)."},
    {"_thread_generator", mt_py_thread_generator, METH_NOARGS,
     "_thread_generator() -> the calling thread's default generator."},
    {"_random_fill_", FAST(mt_py_random_fill_),
     "_random_fill_(self, dist, a, b, generator): fills self in place (see aten_lite/random.h)."},
    {"_random_int_", FAST(mt_py_random_int_),
     "_random_int_(self, from, range, generator): self = from + (r mod range); range 0 is 2^64."},
    {"_bernoulli_tensor_", FAST(mt_py_bernoulli_tensor_),
     "_bernoulli_tensor_(self, p, generator): self = 1 with probability p (broadcast), else 0."},
    {"_randperm", FAST(mt_py_randperm), "_randperm(n, dtype, generator) -> Tensor"},
    {"_poisson", FAST(mt_py_poisson), "_poisson(rates, generator) -> Tensor"},
    {"_multinomial", FAST(mt_py_multinomial),
     "_multinomial(probs, num_samples, replacement, generator) -> int64 Tensor"},
    {"_cuda_default_generator", mt_py_cuda_default_generator, METH_O,
     "_cuda_default_generator(index): the default generator of CUDA device index (Note [CUDA "
     "generators])."},
    {"_cuda_manual_seed_all", mt_py_cuda_manual_seed_all, METH_O,
     "_cuda_manual_seed_all(seed): seeds the CUDA default generators, those made later too."},
    {NULL},
};

int
mt__random_binding_init(PyObject *module)
{
    mt__Generator_Type = (PyTypeObject *)PyType_FromModuleAndSpec(module, &generator_spec, NULL);
    if (mt__Generator_Type == NULL) {
        return -1;
    }
    if (PyModule_AddObjectRef(module, "Generator", (PyObject *)mt__Generator_Type) < 0) {
        return -1;
    }
    mt__default_generator = PyObject_CallNoArgs((PyObject *)mt__Generator_Type);
    if (mt__default_generator == NULL) {
        return -1;
    }
    if (PyModule_AddObjectRef(module, "default_generator", mt__default_generator) < 0) {
        return -1;
    }
    return PyModule_AddFunctions(module, mt_random_functions);
}
