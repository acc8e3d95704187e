// SPDX-License-Identifier: Apache-2.0
#pragma once

// Linux CPU list syntax ("0-15,32-47", "0,2-47,96-143"), as nvidia-smi prints CPU Affinity and
// NodeShape files keep the CPU ids of a NUMA node.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace drasim::topology {

/// Sorted, duplicate-free CPU ids; nullopt when the text is not a CPU list.
std::optional<std::vector<int>> parseCpuList(std::string_view text);
/// The shortest list text for sorted ids: runs of two or more become "a-b".
std::string formatCpuList(const std::vector<int>& cpus);

} // namespace drasim::topology
