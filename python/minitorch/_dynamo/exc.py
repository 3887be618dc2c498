"""minitorch._dynamo.exc: the exception torch.compile raises for an unknown backend."""


class TorchDynamoException(RuntimeError):
    pass


class InvalidBackend(TorchDynamoException):
    pass
