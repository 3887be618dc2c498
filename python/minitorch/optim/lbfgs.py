"""L-BFGS, as ``torch.optim.LBFGS``: a quasi-Newton method that keeps the last
``history_size`` pairs of parameter and gradient changes and, each iteration, turns the
gradient into a search direction with the two-loop recursion, then steps along it by ``lr``
(``line_search_fn=None``) or by a step length satisfying the strong Wolfe conditions
(``"strong_wolfe"``: bracketing, then zooming with cubic interpolation, as minFunc).

One ``step(closure)`` runs up to ``max_iter`` iterations (and ``max_eval`` evaluations of the
closure), stopping early when the gradient's largest entry falls below ``tolerance_grad`` or
the step or the change of the loss below ``tolerance_change``.  All parameters are handled as
one flat vector; there is one parameter group.  The scalars of the method (curvatures, step
lengths, directional derivatives) are 0-dim tensors of the parameters' dtype, computed in the
same order as torch's, so the iterates equal torch's to float rounding."""
import minitorch

from .optimizer import Optimizer, _check_lr, _scalar_value

__all__ = ["LBFGS"]


def _cubic_minimum(x1, f1, g1, x2, f2, g2, bounds=None):
    """The minimiser of the cubic through (x1, f1) and (x2, f2) with slopes g1 and g2, clipped
    to bounds (default: the interval between x1 and x2); the midpoint when the cubic has no
    minimum."""
    if bounds is not None:
        lo, hi = bounds
    else:
        lo, hi = (x1, x2) if x1 <= x2 else (x2, x1)
    d1 = g1 + g2 - 3 * (f1 - f2) / (x1 - x2)
    d2_square = d1 ** 2 - g1 * g2
    if d2_square >= 0:
        d2 = d2_square.sqrt()
        if x1 <= x2:
            x = x2 - (x2 - x1) * ((g2 + d2 - d1) / (g2 - g1 + 2 * d2))
        else:
            x = x1 - (x1 - x2) * ((g1 + d2 - d1) / (g1 - g2 + 2 * d2))
        return min(max(x, lo), hi)
    return (lo + hi) / 2.0


class _Point:
    """A trial step length t with the loss f, the flat gradient g and the directional
    derivative gtd = g . d there."""
    __slots__ = ("t", "f", "g", "gtd")

    def __init__(self, t, f, g, gtd):
        self.t, self.f, self.g, self.gtd = t, f, g, gtd


def _strong_wolfe(evaluate, x, t, d, f, g, gtd, c1=1e-4, c2=0.9, tolerance_change=1e-9,
                  max_ls=25):
    """A step length along d satisfying the strong Wolfe conditions (sufficient decrease with
    c1, curvature with c2), starting from t; evaluate(x, t, d) -> (loss, flat gradient) at
    x + t d.  Returns (loss, flat gradient, t, number of evaluations)."""
    d_norm = d.abs().max()
    g = g.clone(memory_format=minitorch.contiguous_format)
    start = _Point(0, f, g, gtd)
    f_new, g_new = evaluate(x, t, d)
    evals = 1
    gtd_new = g_new.dot(d)

    # bracketing: grow t until an interval holds a point satisfying the conditions
    prev = start
    bracket = None       # [low, high] points, or a single point once the conditions hold
    done = False
    ls_iter = 0
    while ls_iter < max_ls:
        if f_new > f + c1 * t * gtd or (ls_iter > 1 and f_new >= prev.f):
            bracket = [prev, _Point(t, f_new, g_new.clone(memory_format=minitorch.contiguous_format), gtd_new)]
            break
        if abs(gtd_new) <= -c2 * gtd:
            bracket = [_Point(t, f_new, g_new, gtd_new)]
            done = True
            break
        if gtd_new >= 0:
            bracket = [prev, _Point(t, f_new, g_new.clone(memory_format=minitorch.contiguous_format), gtd_new)]
            break
        # extrapolate: the cubic's minimum within [t + 0.01 (t - t_prev), 10 t]
        t_next = _cubic_minimum(prev.t, prev.f, prev.gtd, t, f_new, gtd_new,
                                bounds=(t + 0.01 * (t - prev.t), t * 10))
        prev = _Point(t, f_new, g_new.clone(memory_format=minitorch.contiguous_format), gtd_new)
        t = t_next
        f_new, g_new = evaluate(x, t, d)
        evals += 1
        gtd_new = g_new.dot(d)
        ls_iter += 1
    if ls_iter == max_ls:
        bracket = [start, _Point(t, f_new, g_new, None)]

    # zoom: shrink the bracket by cubic interpolation until a point satisfies the conditions
    insufficient_progress = False
    low, high = (0, 1) if bracket[0].f <= bracket[-1].f else (1, 0)
    while not done and ls_iter < max_ls:
        a, b = bracket
        if abs(b.t - a.t) * d_norm < tolerance_change:
            break
        t = _cubic_minimum(a.t, a.f, a.gtd, b.t, b.f, b.gtd)
        # keep the trial point away from the ends of the bracket
        t_max, t_min = max(a.t, b.t), min(a.t, b.t)
        eps = 0.1 * (t_max - t_min)
        if min(t_max - t, t - t_min) < eps:
            if insufficient_progress or t >= t_max or t <= t_min:
                t = t_max - eps if abs(t - t_max) < abs(t - t_min) else t_min + eps
                insufficient_progress = False
            else:
                insufficient_progress = True
        else:
            insufficient_progress = False

        f_new, g_new = evaluate(x, t, d)
        evals += 1
        gtd_new = g_new.dot(d)
        ls_iter += 1
        point = _Point(t, f_new, g_new.clone(memory_format=minitorch.contiguous_format), gtd_new)
        if f_new > f + c1 * t * gtd or f_new >= bracket[low].f:
            bracket[high] = point
            low, high = (0, 1) if bracket[0].f <= bracket[1].f else (1, 0)
        else:
            if abs(gtd_new) <= -c2 * gtd:
                done = True
            elif gtd_new * (bracket[high].t - bracket[low].t) >= 0:
                bracket[high] = bracket[low]
            bracket[low] = point

    best = bracket[low]
    return best.f, best.g, best.t, evals


class LBFGS(Optimizer):
    def __init__(self, params, lr=1, max_iter=20, max_eval=None, tolerance_grad=1e-7,
                 tolerance_change=1e-9, history_size=100, line_search_fn=None, *,
                 maximize=False):
        _check_lr(lr)
        if max_eval is None:
            max_eval = max_iter * 5 // 4
        defaults = dict(lr=lr, max_iter=max_iter, max_eval=max_eval,
                        tolerance_grad=tolerance_grad, tolerance_change=tolerance_change,
                        history_size=history_size, line_search_fn=line_search_fn,
                        maximize=maximize)
        super().__init__(params, defaults)
        if len(self.param_groups) != 1:
            raise ValueError("LBFGS doesn't support per-parameter options (parameter groups)")
        self._params = self.param_groups[0]["params"]
        self._numel_cache = None

    # ---- the parameters as one flat vector --------------------------------------------------
    def _numel(self):
        if self._numel_cache is None:
            self._numel_cache = sum(2 * p.numel() if p.is_complex() else p.numel()
                                    for p in self._params)
        return self._numel_cache

    def _gather_flat_grad(self):
        views = []
        for p in self._params:
            if p.grad is None:
                view = p.new_zeros(p.numel())
            else:
                view = p.grad.reshape(-1)
            if view.is_complex():
                view = minitorch.view_as_real(view).reshape(-1)
            views.append(view)
        flat_grad = minitorch.cat(views, 0)
        if self.param_groups[0].get("maximize", False):
            flat_grad.neg_()
        return flat_grad

    def _add_grad(self, step_size, update):
        offset = 0
        for p in self._params:
            if p.is_complex():
                p = minitorch.view_as_real(p)
            numel = p.numel()
            p.add_(update[offset:offset + numel].view_as(p), alpha=step_size)
            offset += numel
        if offset != self._numel():
            raise AssertionError(f"Expected offset {offset} to equal {self._numel()}")

    def _clone_param(self):
        return [p.clone(memory_format=minitorch.contiguous_format) for p in self._params]

    def _set_param(self, params_data):
        for p, pdata in zip(self._params, params_data):
            p.copy_(pdata)

    def _directional_evaluate(self, closure, x, t, d):
        """(loss, flat gradient) at x + t d; the parameters are set back to x."""
        self._add_grad(t, d)
        loss = float(closure())
        if self.param_groups[0].get("maximize", False):
            loss = -loss
        flat_grad = self._gather_flat_grad()
        self._set_param(x)
        return loss, flat_grad

    # ---- the iteration ----------------------------------------------------------------------
    def step(self, closure):
        """Runs up to max_iter iterations; closure() recomputes the loss and the gradients and
        returns the loss.  Returns the loss at the start."""
        with minitorch.no_grad():
            return self._step(closure)

    def _evaluate(self, closure):
        with minitorch.enable_grad():
            return closure()

    def _step(self, closure):
        if len(self.param_groups) != 1:
            raise AssertionError(f"Expected exactly one param_group, but got "
                                 f"{len(self.param_groups)}")
        if len(self._params) == 0:
            return self._evaluate(closure)

        def grad_closure():
            return self._evaluate(closure)

        group = self.param_groups[0]
        lr = _scalar_value(group["lr"])
        max_iter = group["max_iter"]
        max_eval = group["max_eval"]
        tolerance_grad = group["tolerance_grad"]
        tolerance_change = group["tolerance_change"]
        line_search_fn = group["line_search_fn"]
        history_size = group["history_size"]
        maximize = group.get("maximize", False)

        # the state lives under the first parameter (torch's layout)
        state = self.state[self._params[0]]
        state.setdefault("func_evals", 0)
        state.setdefault("n_iter", 0)

        orig_loss = grad_closure()
        loss = -float(orig_loss) if maximize else float(orig_loss)
        current_evals = 1
        state["func_evals"] += 1

        flat_grad = self._gather_flat_grad()
        if flat_grad.abs().max() <= tolerance_grad:
            return orig_loss

        d = state.get("d")
        t = state.get("t")
        old_dirs = state.get("old_dirs")
        old_stps = state.get("old_stps")
        ro = state.get("ro")
        H_diag = state.get("H_diag")
        prev_flat_grad = state.get("prev_flat_grad")
        prev_loss = state.get("prev_loss")

        n_iter = 0
        while n_iter < max_iter:
            n_iter += 1
            state["n_iter"] += 1

            # the search direction
            if state["n_iter"] == 1:
                d = flat_grad.neg()
                old_dirs, old_stps, ro = [], [], []
                H_diag = 1
            else:
                # remember the curvature pair (y, s) when it is positive enough
                y = flat_grad.sub(prev_flat_grad)
                s = d.mul(t)
                ys = y.dot(s)
                if ys > 1e-10:
                    if len(old_dirs) == history_size:
                        old_dirs.pop(0)
                        old_stps.pop(0)
                        ro.pop(0)
                    old_dirs.append(y)
                    old_stps.append(s)
                    ro.append(1.0 / ys)
                    H_diag = ys / y.dot(y)  # the initial inverse Hessian: H_diag * I

                # the two-loop recursion: d = -H g
                num_old = len(old_dirs)
                if "al" not in state:
                    state["al"] = [None] * history_size
                al = state["al"]
                q = flat_grad.neg()
                for i in range(num_old - 1, -1, -1):
                    al[i] = old_stps[i].dot(q) * ro[i]
                    q.add_(old_dirs[i], alpha=-al[i])
                d = r = minitorch.mul(q, H_diag)
                for i in range(num_old):
                    be_i = old_dirs[i].dot(r) * ro[i]
                    r.add_(old_stps[i], alpha=al[i] - be_i)

            if prev_flat_grad is None:
                prev_flat_grad = flat_grad.clone(memory_format=minitorch.contiguous_format)
            else:
                prev_flat_grad.copy_(flat_grad)
            prev_loss = loss

            # the step length
            if state["n_iter"] == 1:
                t = min(1.0, 1.0 / flat_grad.abs().sum()) * lr
            else:
                t = lr
            gtd = flat_grad.dot(d)
            if gtd > -tolerance_change:
                break  # not a descent direction

            ls_func_evals = 0
            if line_search_fn is not None:
                if line_search_fn != "strong_wolfe":
                    raise RuntimeError("only 'strong_wolfe' is supported")
                x_init = self._clone_param()

                def evaluate(x, t, d):
                    return self._directional_evaluate(grad_closure, x, t, d)

                loss, flat_grad, t, ls_func_evals = _strong_wolfe(
                    evaluate, x_init, t, d, loss, flat_grad, gtd,
                    max_ls=max_eval - current_evals)
                self._add_grad(t, d)
                opt_cond = flat_grad.abs().max() <= tolerance_grad
            else:
                self._add_grad(t, d)
                opt_cond = False
                if n_iter != max_iter:
                    loss = grad_closure()
                    loss = -float(loss) if maximize else float(loss)
                    flat_grad = self._gather_flat_grad()
                    opt_cond = flat_grad.abs().max() <= tolerance_grad
                    ls_func_evals = 1
            current_evals += ls_func_evals
            state["func_evals"] += ls_func_evals

            # the stopping tests
            if n_iter == max_iter or current_evals >= max_eval or opt_cond:
                break
            if d.mul(t).abs().max() <= tolerance_change:
                break
            if abs(loss - prev_loss) < tolerance_change:
                break

        state["d"] = d
        state["t"] = t
        state["old_dirs"] = old_dirs
        state["old_stps"] = old_stps
        state["ro"] = ro
        state["H_diag"] = H_diag
        state["prev_flat_grad"] = prev_flat_grad
        state["prev_loss"] = prev_loss
        return orig_loss
