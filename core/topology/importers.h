// SPDX-License-Identifier: Apache-2.0
#pragma once

// Shapes from real machines: `nvidia-smi topo -m` text and hwloc XML (`lstopo --of xml`).
// Both report malformed input as located Diagnostics and never crash.

#include <string>
#include <string_view>
#include <vector>

#include "core/common/diagnostic.h"
#include "core/topology/node_shape.h"

namespace drasim::topology {

struct ImportOptions
{
    std::string shapeName = "imported"; ///< metadata.name of the result (a DNS label)
    /// Device models for what the input cannot name. Empty = a generic model defined in the shape.
    std::string gpuModel;
    std::string nicModel;
};

enum class InputFormat { NodeShapeYaml, NvidiaSmiTopo, HwlocXml };

/// Guesses the format from the content (XML prolog / <topology>, an nvidia-smi matrix header).
InputFormat detectFormat(std::string_view text);

/// Builds a shape whose PCIe tree reproduces the matrix: devices that are PIX share a switch,
/// PXB share a switch hierarchy, PHB a root complex, NODE a NUMA node. Bus addresses are not in
/// the matrix and are synthesised (one root bus per reconstructed root complex). Rows that
/// disagree with every tree are reported as warnings.
bool importNvidiaSmiTopo(std::string_view text, const std::string& fileName, const ImportOptions& options,
    NodeShape& out, Diagnostics& diags);

/// hwloc 2.x XML: Package → NUMANode/cores, Bridge (host bridge / PCI bridge) → PCIDev with
/// class (0300/0302 GPU, 0200/0207 NIC, 1200 accelerator, 0b40 co-processor), vendor:device ids,
/// busid and OS devices (ibN/mlx5_N names, cudaN). Known PCI ids map to built-in models.
bool importHwlocXml(std::string_view text, const std::string& fileName, const ImportOptions& options,
    NodeShape& out, Diagnostics& diags);

/// Loads any supported input file as shapes (YAML may hold several). Format by content.
std::vector<NodeShape> loadShapeInput(
    const std::string& path, const ImportOptions& options, Diagnostics& diags);

} // namespace drasim::topology

namespace drasim::topology {

/// What the CLI and GUI accept as a shape argument: an existing file (NodeShape YAML, nvidia-smi
/// text or hwloc XML) or a catalog name looked up in catalogDir (empty = Catalog's default).
/// Unknown names get one diagnostic listing the catalog.
std::vector<NodeShape> resolveShapeArgument(
    const std::string& arg, const std::string& catalogDir, const ImportOptions& options, Diagnostics& diags);

} // namespace drasim::topology
