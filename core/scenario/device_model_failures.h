// SPDX-License-Identifier: Apache-2.0
#pragma once

// Hardware failures by device model: a Scenario's spec.cluster.failures (and a Study's
// spec.failures, which says the same for the pools of its candidates and wins over the
// scenario's entry of the same model):
//
//   failures:
//     byDeviceModel:                # keys: the catalog's device model ids (a NodeShape's `model:`)
//       H100-SXM5-80GB: {mtbf: 6300h, repair: {mean: 48h, distribution: lognormal, sigma: 1.0}}
//       A100-SXM4-40GB: {mtbf: 9000h, weibull: {shape: 0.8}, repair: {mean: 24h}}
//
// Each value is what a node pool's `failures:` holds (pool_failures_yaml.h), with the same
// meaning: the failure process of each NODE that carries the model (not of each device), so a
// model's setting gives the run that writing it on each pool of that model gives. It applies to
// every pool of the scenario, or of a planner's candidate mix, whose shape carries the model; a
// model no pool carries does nothing (a mix without it is not an error).
//
// Precedence: a pool's own `failures:` replaces its models' processes. A figure written on a
// pool describes its whole server, so adding a model's on top would count the same parts twice.
// Spot reclaims (`spot:`) stay per pool: a reclaim comes from how capacity is bought, not from
// the silicon, and a pool's spot reclaims run beside its models' failures.
//
// A node with two listed models (a GPU and a NIC, say) fails with both processes, each on its
// own random stream; it goes down at the first failure of either and is back after that
// model's repair. That is what an operator who writes a figure for each part expects: a server
// is down when any of its parts is, and a NIC's failures do not stop because the GPUs also fail.
// Picking one model (the GPU) would drop the NIC's figure without a word. The first listed model
// the node carries, in the order of the shape's devices, draws from the stream a pool's own
// `failures:` would.
//
// Nodes of pools added by AddNodePool events do not fail on their own (their own `failures:` are
// refused too): failures are drawn for the whole run for the nodes present from its start. Nor
// do the nodes of manifests and trace node lists, which have no catalog shape to carry a model.

#include <string>
#include <vector>

#include "core/common/data_value.h"
#include "core/common/diagnostic.h"
#include "core/sim/failure_spec.h"
#include "core/topology/node_shape.h"
#include "core/yamlio/doc_reader.h"

namespace drasim::scenario {

/// One entry of `byDeviceModel`.
struct DeviceModelFailures
{
    std::string model; ///< a catalog device model id ("H100-SXM5-80GB")
    sim::NodeFailureProcess process;
    SourcePos pos; ///< where the model's key is written
    std::string path; ///< "spec.cluster.failures.byDeviceModel.H100-SXM5-80GB"
};

/// Parses a `failures:` map of failure settings that apply by device model ({byDeviceModel:
/// {...}}), appending its entries in document order. Errors are located at the field.
void parseFailuresByDeviceModel(yamlio::DocReader& r, const yamlio::YamlNode& n, const std::string& path,
    std::vector<DeviceModelFailures>& out);

/// The `failures:` map as the reader takes it.
DataValue failuresByDeviceModelData(const std::vector<DeviceModelFailures>& entries);

/// `base` with the entries of `over` replacing those of the same model (others appended).
std::vector<DeviceModelFailures> withDeviceModelFailures(
    std::vector<DeviceModelFailures> base, const std::vector<DeviceModelFailures>& over);

/// Reports each entry whose model neither the built-in table nor any of `shapes` defines, as
/// `kind name: path: Not found: ...` with the known ids (or, for a product name, its model's id).
/// True when every model is known.
bool checkDeviceModelsKnown(const std::vector<DeviceModelFailures>& entries,
    const std::vector<const topology::NodeShape*>& shapes, Diagnostics& diags, const std::string& kind,
    const std::string& name);

/// The failure settings of a pool of `shape`: `own`, and, when it has no `failures:` of its own,
/// the processes of the listed models the shape carries (in the order of its devices).
sim::PoolFailures poolFailuresWithModels(const sim::PoolFailures& own, const topology::NodeShape& shape,
    const std::vector<DeviceModelFailures>& byModel);

} // namespace drasim::scenario
