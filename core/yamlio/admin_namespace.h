// SPDX-License-Identifier: Apache-2.0
#pragma once

// Internal to yamlio: the API server's namespace gate for admin access to devices. Runs after every
// file is read, because a Namespace may come after the claims that live in it.

#include "core/api/object_set.h"
#include "core/common/diagnostic.h"

namespace drasim::yamlio {

/// The label a namespace needs before claims and templates in it may set `adminAccess: true`.
inline constexpr const char* kAdminAccessNamespaceLabel = "resource.kubernetes.io/admin-access";

/// Rejects (reports and removes) ResourceClaims and ResourceClaimTemplates that request admin
/// access in a namespace without the label. Inputs without any Namespace object are not checked:
/// plain manifests (not a dump of a cluster) say nothing about their namespaces.
void rejectUnauthorizedAdminAccess(api::ObjectSet& objects, Diagnostics& diags);

} // namespace drasim::yamlio
