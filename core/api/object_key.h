// SPDX-License-Identifier: Apache-2.0
#pragma once

// The "namespace/name" key the scheduler, the one-shot scheduling and the desktop name objects by.

#include <string>

#include "core/api/core_v1.h"
#include "core/api/meta.h"

namespace drasim::api {

/// "namespace/name", the empty namespace read as "default".
inline std::string objectKey(const ObjectMeta& meta)
{
    return (meta.namespace_.empty() ? std::string("default") : meta.namespace_) + "/" + meta.name;
}

/// The key of the PodGroup a pod names in spec.schedulingGroup (in the pod's namespace); "" for a
/// pod of no group.
inline std::string podGroupKeyOf(const Pod& pod)
{
    if (!pod.spec.schedulingGroup)
        return {};
    ObjectMeta ref;
    ref.namespace_ = pod.meta.namespace_;
    ref.name = *pod.spec.schedulingGroup;
    return objectKey(ref);
}

} // namespace drasim::api
