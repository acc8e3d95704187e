// SPDX-License-Identifier: Apache-2.0
#pragma once

// The generic CSV trace (`trace: {format: csv}`): one job per row, streamed, so files of any
// length work. A header line names the columns; order is free, unknown columns are an error.
//
//   column        meaning                                                   default
//   name          job name (lowercase DNS subdomain), required, unique        -
//   arrival       submission time: seconds or "15m", "2h"; rows must be      arrival process
//                 in non-decreasing order (omit the column to use `arrival:`)
//   duration      "2h", "forever", "exponential(30m)", "lognormal(20m,0.8)",  workload duration,
//                 "uniform(10m,1h)"                                           else forever
//   kind          job or service                                              job
//   parallelism   pods at once (service: replicas)                            1
//   completions   successful pods needed (job)                                1 (service: parallelism)
//   backoff_limit failed pods tolerated (job)                                 0
//   priority      pod priority                                                0
//   cpu, memory   container requests as Kubernetes quantities ("500m", "4Gi") none
//   gpus          devices per pod                                             0
//   gpu_milli     share of one GPU in thousandths (gpus = 1)                  1000
//   gpu_models    allowed models, "A|B" (trace driver attribute `model`)      any
//   device_class  use this DeviceClass instead of the trace GPU driver         -
//   selector      CEL selector added to the device_class request               -
// Without device_class, GPU demands map exactly like the Alibaba trace (trace_mapping.h). With
// device_class, rows with equal (device_class, gpus, selector) share one claim template named
// "<workload>-claim-<k>" (k in order of first use); gpu_milli/gpu_models must then be empty.
// Example:
//   name,arrival,duration,cpu,memory,gpus,gpu_models
//   train-0001,0,2h,8,32Gi,4,V100M32
//   infer-0002,90s,forever,2,8Gi,1,T4|A10

#include <memory>

#include "core/workload/workload_spec.h"

namespace drasim::workload {

std::unique_ptr<ArrivalSource> makeCsvTraceSource(
    const WorkloadSpec& spec, uint64_t seed, Diagnostics& diags);

} // namespace drasim::workload
