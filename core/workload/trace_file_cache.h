// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "core/common/diagnostic.h"
#include "core/workload/alibaba_trace.h"

namespace drasim::workload {

/// The pod list of an Alibaba trace file, parsed once per process while the file stays as it was
/// (same size and modification time): a study runs hundreds of simulations of one scenario, and
/// parsing the 8,152-row default trace took a quarter of each. Only a read that reported nothing
/// (no error, no warning) is kept, so a file with problems reports them on every read. Safe to
/// call from several threads. nullptr when the read failed (its errors are in `diags`).
std::shared_ptr<const AlibabaPodList> sharedAlibabaPods(
    const std::string& path, Diagnostics& diags, std::optional<uint64_t> limit);

} // namespace drasim::workload
