"""The notes' launch-style test.py on GPUs: RandomDataset + DistributedSampler + DDP with
device_ids=[local_rank] over NCCL, one process per GPU.

As in the notes except for: the imports; the model is wrapped in DDP whatever the GPU count
(the notes wrap it when there are 2 GPUs) and each batch's output is backpropagated, so the
gradient all-reduce runs too; one thread per process instead of six; the process group is
destroyed at the end.

    python -m minitorch.distributed.launch --nproc_per_node=NGPUS --use_env examples/ddp_launch_nccl.py
"""
import os

import minitorch as torch
import minitorch.nn as nn
from minitorch.utils.data import Dataset, DataLoader
from minitorch.utils.data.distributed import DistributedSampler
from minitorch.nn.parallel import DistributedDataParallel as DDP


torch.set_num_threads(1)
print("the number of cpu threads: {}".format(torch.get_num_threads()))

input_size = 5
output_size = 2
batch_size = 30
data_size = 90


class RandomDataset(Dataset):
    def __init__(self, size, length):
        self.len = length
        self.data = torch.randn(length, size)

    def __getitem__(self, index):
        return self.data[index]

    def __len__(self):
        return self.len


class Model(nn.Module):
    def __init__(self, input_size, output_size):
        super(Model, self).__init__()
        self.fc = nn.Linear(input_size, output_size)

    def forward(self, input):
        output = self.fc(input)
        return output


local_rank = int(os.environ["LOCAL_RANK"])
torch.cuda.set_device(local_rank)
torch.distributed.init_process_group(backend="nccl")
device = torch.device("cuda", local_rank)

dataset = RandomDataset(input_size, data_size)
rand_loader = DataLoader(dataset=dataset,
                         batch_size=batch_size,
                         sampler=DistributedSampler(dataset))

model = Model(input_size, output_size)
model.to(device)

if local_rank == 0:
    print("Let's use", torch.cuda.device_count(), "GPUs!")
model = DDP(model, device_ids=[local_rank], output_device=local_rank)

for data in rand_loader:
    input_var = data.to(device)
    output = model(input_var)
    output.sum().backward()
    print(f"Model {local_rank}, input size: {input_var.size()}, "
          + f"output size: {output.size()}")

torch.distributed.destroy_process_group()
