/* optical/optical.h — the hybrid optical data-centre network
 * ([network] topology = optical, section [optical]): racks of servers on an
 * electrical rack switch (the packet network's terminals and routers), a
 * top-of-rack switch (ToR) per rack that turns electrical packets into
 * photonic packets and sends them over an optical packet switch (OPS: no
 * buffers, drops on contention, ACK/NACK and resend) or over circuits of an
 * optical circuit switch (OCS: set up on request by a control plane).
 * Every rule, default and derivation: models/optical/README.md. */
#ifndef OPTICAL_H
#define OPTICAL_H

#include "net/network.h"

/* The network, for the catalogue. */
extern const net_network_ops optical_network;

#endif
