// SPDX-License-Identifier: Apache-2.0
#pragma once

// Internal to the `nvidia-smi topo -m` import: what the text says (parse phase) before a shape
// is built from it (shape phase). Not a public header.

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/diagnostic.h"
#include "core/topology/importers.h"
#include "core/topology/topology.h"

namespace drasim::topology::smi {

/// One matrix cell as printed, with where it was printed.
struct Cell
{
    std::string text; ///< "SYS", "NV12", "X" (trimmed)
    Distance distance;
    int line = 0; ///< 1-based
    int column = 0; ///< 1-based
};

/// One device of the header (GPU0, NIC1, mlx5_0) and its row.
struct DeviceRow
{
    std::string label; ///< as in the header
    bool gpu = false;
    std::vector<Cell> cells; ///< one per header device
    std::string cpuAffinity; ///< as printed; empty when the row has none
    std::string numaAffinity; ///< as printed ("3", "N/A"); empty when the row has none
    int line = 0;
    int cpuColumn = 0;
    int numaColumn = 0;
};

/// The parsed capture: devices in header order, their rows and the NIC legend.
struct Capture
{
    std::string fileName;
    int headerLine = 0; ///< 1-based
    bool hasCpuAffinity = false;
    bool hasNumaAffinity = false;
    std::vector<DeviceRow> devices;
    std::map<std::string, std::string> nicLegend; ///< NIC0 → mlx5_0

    /// The cell the shape is built from: the upper triangle, as nvidia-smi fills both halves
    /// from one query per pair.
    const Distance& pcie(size_t a, size_t b) const
    {
        return a < b ? devices[a].cells[b].distance : devices[b].cells[a].distance;
    }
};

/// Parse phase: finds the header, reads every row, checks the matrix. False (with located
/// errors) when the text is not a usable matrix.
bool parseCapture(std::string_view text, const std::string& fileName, const std::string& shapeName,
    Capture& out, Diagnostics& diags);

/// Shape phase: rebuilds a PCIe tree, NUMA nodes and fabrics, and keeps the observed matrix.
bool buildShapeFromCapture(
    const Capture& capture, const ImportOptions& options, NodeShape& out, Diagnostics& diags);

} // namespace drasim::topology::smi
