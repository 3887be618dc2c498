"""ft.Optimizer: an optimizer whose step applies only committed steps (torchft's
OptimizerWrapper)."""

__all__ = ["Optimizer", "OptimizerWrapper"]


class Optimizer:
    """``Optimizer(manager, optim)``: zero_grad() starts the step's quorum
    (Manager.start_quorum: re-forms and heals after a failure or a join) and zeroes the
    gradients; step() runs the wrapped optimizer only when Manager.should_commit() says the
    step's all-reduce succeeded on the quorum (Note [Fault-tolerant steps])."""

    def __init__(self, manager, optim):
        self.manager = manager
        self.optim = optim

    def zero_grad(self, set_to_none=True):
        self.manager.start_quorum()
        self.optim.zero_grad(set_to_none)

    def step(self, closure=None):
        if closure is not None:
            raise NotImplementedError("ft.Optimizer.step: closures are not implemented (the "
                                      "commit decision comes after the gradients' all-reduce)")
        if self.manager.should_commit():
            self.optim.step()

    @property
    def param_groups(self):
        return self.optim.param_groups

    @property
    def state(self):
        return self.optim.state

    def state_dict(self):
        return self.optim.state_dict()

    def load_state_dict(self, state_dict):
        self.optim.load_state_dict(state_dict)

    def add_param_group(self, param_group):
        self.optim.add_param_group(param_group)

    def __repr__(self):
        return f"ft.Optimizer({self.optim!r})"


OptimizerWrapper = Optimizer
