"""The zero-copy programs from the user's notes, run with `import minitorch as torch`."""
import numpy as np

import minitorch as torch

# a copy is made
np_array = np.ones((1, 2))
torch_array = torch.tensor(np_array)
torch_array.fill_(2.0)
print("tensor() copies:      ", np_array)

# zero-copy
np_array = np.ones((1, 2))
torch_array = torch.from_numpy(np_array)
torch_array[:] = 2.0
print("from_numpy() shares:  ", np_array)

# views share the storage
t_a = torch.ones((2, 2))
t_b = t_a.view(4)
print("view shares storage:  ", t_a.storage().data_ptr() == t_b.storage().data_ptr())

a = torch.arange(12).view(3, 4)
print(a)
print("a.t():", a.t(), "contiguous:", a.t().is_contiguous())
print("a[1:, ::2]:", a[1:, ::2])
