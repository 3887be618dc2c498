/* csrc/distributed/transport/waiting.h - how long an exchange polls before it sleeps; shared by the transports. */
#ifndef CSRC_DISTRIBUTED_TRANSPORT_WAITING_H
#define CSRC_DISTRIBUTED_TRANSPORT_WAITING_H

#include <stdbool.h>
#include <stdint.h>

#include "csrc/distributed/common/net.h"

/* Note [Polling before sleeping]
 * A message between two processes on one host arrives within microseconds,
 * but a thread that sleeps (in poll() or on a futex) takes tens of
 * microseconds to be woken and scheduled again (more on virtual machines),
 * which dominated the latency of small collectives.  So an exchange first
 * polls without sleeping for a short budget (MINITORCH_SPIN_US, default
 * 50 us, 100 us when oversubscribed; 0 turns it off), as MPI libraries do,
 * and only then sleeps until the deadline.  When the host runs more ranks
 * than cores, a spinning rank would hold the core its peer needs to make the
 * awaited progress: there each empty turn yields the core (sched_yield),
 * which measured twice as fast as sleeping at once for 3 and 4 ranks on 2
 * cores. */

/* Whether this host runs more ranks (LOCAL_WORLD_SIZE, set by the launchers,
 * or else the group size `size`) than it has cores. */
bool mt_oversubscribed(int size);

/* The spin budget in microseconds: MINITORCH_SPIN_US when set, else 50 (100
 * when oversubscribed, where each turn also yields the core). */
int64_t mt_spin_us(bool oversubscribed);

#endif /* CSRC_DISTRIBUTED_TRANSPORT_WAITING_H */
