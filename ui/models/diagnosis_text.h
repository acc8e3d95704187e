// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>

#include "core/scheduler/diagnosis.h"

namespace drasim::ui {

/// Why a device could not serve a request, in plain words ("already allocated to another claim").
QString rejectReasonInWords(scheduler::DeviceRejectReason reason);

/// The core's diagnosis of one pod (the one `drasim explain` prints), worded for someone learning
/// DRA: what the scheduler said, then per node whether the node itself fits and, per claim and
/// request, how many devices could serve it and why the others could not, and what preemption
/// would do (the pod's outcome, then per node); then the diagnosis as
/// `drasim explain` prints it, word for word. Rich text (HTML).
QString diagnosisInWords(const scheduler::PodDiagnosis& diagnosis);

/// For a PodGroup's row: the group part of a pending member's diagnosis (core's words, "pod group
/// default/train (gang, minCount 2): last group cycle: ...") and what preemption would do for it;
/// "" when the pod is in no group. Rich text (HTML).
QString groupDiagnosisInWords(const scheduler::PodDiagnosis& diagnosis);

} // namespace drasim::ui
