// SPDX-License-Identifier: Apache-2.0
#pragma once

// Shapes from real machines: `nvidia-smi topo -m` text and hwloc XML (`lstopo --of xml`).
// Both report malformed input as located Diagnostics and never crash.

#include <optional>
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
    /// The Node's memory where the input has none (nvidia-smi); split evenly over NUMA nodes.
    /// Unset = the Node publishes no memory, with a warning.
    std::optional<Quantity> memory;
};

enum class InputFormat { NodeShapeYaml, NvidiaSmiTopo, HwlocXml };

/// Guesses the format from the content (XML prolog / <topology>, an nvidia-smi matrix header).
InputFormat detectFormat(std::string_view text);

/// Keeps the capture's matrix cell for cell (NodeShape::observed) and its CPU and NUMA affinity
/// verbatim, and rebuilds a PCIe tree for what the matrix is silent about: devices that are PIX
/// share a switch, PXB a switch hierarchy, PHB a root complex. NUMA nodes come from the NUMA
/// Affinity column (or, on drivers without it, from the distinct CPU Affinity lists); `N/A`
/// stays unknown. Bus addresses are synthesised. Cells no tree reproduces are warnings and mark
/// the tree approximate; the matrix itself stays as observed.
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
