// SPDX-License-Identifier: Apache-2.0
#pragma once

// Writes the v1 object model back as Kubernetes documents: Kubernetes field names in the API's
// (Go struct) order, apiVersion/kind first, empty optional fields omitted like `omitempty`, and
// defaulted fields (allocationMode, count, toleration operator) written as the API server would
// return them. load → write → load gives the same objects.

#include <string>

#include "core/api/object_set.h"
#include "core/common/data_value.h"

namespace drasim::yamlio {

DataValue toData(const api::ObjectMeta& meta);
DataValue toData(const api::Namespace& ns);
DataValue toData(const api::DeviceTaintRule& rule);
DataValue toData(const api::Node& node);
DataValue toData(const api::Pod& pod);
DataValue toData(const api::PodController& controller);
DataValue toData(const api::ResourceSlice& slice);
DataValue toData(const api::DeviceClass& deviceClass);
DataValue toData(const api::ResourceClaim& claim);
DataValue toData(const api::ResourceClaimTemplate& claimTemplate);
/// scheduling.k8s.io objects, each in the API version it was read in.
DataValue toData(const api::Workload& workload);
DataValue toData(const api::PodGroup& group);
DataValue toData(const api::CompositePodGroup& group);
DataValue toData(const api::PriorityClass& priorityClass);
/// policy/v1 PodDisruptionBudget.
DataValue toData(const api::PodDisruptionBudget& budget);
DataValue toData(const api::Service& service);

/// `apiVersion: v1, kind: List, items: [...]` with every object of the set, in the order
/// Nodes, DeviceClasses, ResourceSlices, ResourceClaimTemplates, ResourceClaims, DeviceTaintRules,
/// PriorityClasses, Workloads, CompositePodGroups, PodGroups, pod controllers, PodDisruptionBudgets,
/// Pods.
DataValue toListData(const api::ObjectSet& objects);
std::string toYamlList(const api::ObjectSet& objects);
std::string toJsonList(const api::ObjectSet& objects);

} // namespace drasim::yamlio
