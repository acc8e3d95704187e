// SPDX-License-Identifier: Apache-2.0
#include "core/scheduler/diagnosis.h"

namespace drasim::scheduler {

std::string formatText(const PodDiagnosis& d)
{
    std::string out = "Pod " + d.pod + ": ";
    if (!d.group.empty()) {
        // A PodGroup member waits for its group: the group's state first, then the pod alone.
        out += "pending\n  " + d.group + "\n";
        out += d.scheduled ? "  on its own it fits, on node " + d.nodeName + "\n"
                           : "  on its own: " + d.message + "\n";
    } else if (d.scheduled) {
        out += "schedulable, chosen node " + d.nodeName + "\n";
    } else {
        out += "pending\n  " + d.message + "\n";
    }
    if (!d.search.empty())
        out += "  " + d.search + "\n";
    for (size_t start = 0; start < d.preemption.size();) {
        const size_t end = std::min(d.preemption.find('\n', start), d.preemption.size());
        out += "  " + d.preemption.substr(start, end - start) + "\n";
        start = end + 1;
    }
    for (const auto& n : d.nodes) {
        out += "\nnode " + n.node + ": ";
        if (!n.examined) {
            out += "not examined\n";
        } else if (!n.nodeReasons.empty()) {
            for (size_t i = 0; i < n.nodeReasons.size(); ++i)
                out += (i ? "; " : "") + n.nodeReasons[i];
            out += "\n";
        } else if (!n.draStatus.empty()) {
            out += n.draStatus + "\n";
        } else {
            out += "fits\n";
        }
        if (!n.preemption.empty())
            out += "  preemption here: " + n.preemption + "\n";
        for (const auto& c : n.claims) {
            out += "  claim " + c.claim;
            if (c.allocated)
                out += " (already allocated)";
            if (!c.note.empty())
                out += ": " + c.note;
            out += "\n";
            for (const auto& r : c.requests) {
                // Appended piecewise: one long concatenation trips a GCC 12 -Wrestrict false positive.
                out += "    request ";
                out += r.request;
                out += " (class ";
                out += r.deviceClass;
                out += ", ";
                out += r.mode;
                if (r.mode == "ExactCount") {
                    out += ' ';
                    out += std::to_string(r.wanted);
                }
                out += "): ";
                out += std::to_string(r.eligible);
                out += " of ";
                out += std::to_string(r.visible);
                out += " devices eligible";
                bool first = true;
                for (size_t i = 0; i < kDeviceRejectReasonCount; ++i) {
                    if (!r.rejected[i])
                        continue;
                    out += first ? "; rejected: " : ", ";
                    first = false;
                    out += std::to_string(r.rejected[i]) + " "
                        + deviceRejectReasonName(DeviceRejectReason(i));
                }
                out += "\n";
                if (!r.firstError.empty())
                    out += "      first error: " + r.firstError + "\n";
                if (!r.firstRuleTaint.empty())
                    out += "      tainted by " + r.firstRuleTaint + "\n";
            }
        }
    }
    return out;
}

DataValue toData(const PodDiagnosis& d)
{
    DataValue root = DataValue::map();
    root.set("pod", d.pod);
    root.set("scheduled", d.scheduled);
    if (d.scheduled)
        root.set("nodeName", d.nodeName);
    else
        root.set("message", d.message);
    if (!d.group.empty())
        root.set("group", d.group);
    if (!d.preemption.empty())
        root.set("preemption", d.preemption);
    if (!d.search.empty())
        root.set("search", d.search);
    DataValue nodes = DataValue::list();
    for (const auto& n : d.nodes) {
        DataValue nd = DataValue::map();
        nd.set("node", n.node);
        if (!n.examined)
            nd.set("examined", false);
        DataValue reasons = DataValue::list();
        for (const auto& r : n.nodeReasons)
            reasons.push(r);
        nd.set("nodeReasons", reasons);
        nd.set("draStatus", n.draStatus);
        if (!n.preemption.empty())
            nd.set("preemption", n.preemption);
        DataValue claims = DataValue::list();
        for (const auto& c : n.claims) {
            DataValue cd = DataValue::map();
            cd.set("claim", c.claim);
            cd.set("allocated", c.allocated);
            if (!c.note.empty())
                cd.set("note", c.note);
            DataValue reqs = DataValue::list();
            for (const auto& r : c.requests) {
                DataValue rd = DataValue::map();
                rd.set("request", r.request);
                rd.set("deviceClass", r.deviceClass);
                rd.set("mode", r.mode);
                rd.set("wanted", r.wanted);
                rd.set("visible", int64_t(r.visible));
                rd.set("eligible", int64_t(r.eligible));
                DataValue rej = DataValue::map();
                for (size_t i = 0; i < kDeviceRejectReasonCount; ++i)
                    if (r.rejected[i])
                        rej.set(deviceRejectReasonName(DeviceRejectReason(i)), int64_t(r.rejected[i]));
                rd.set("rejected", rej);
                if (!r.firstError.empty())
                    rd.set("firstError", r.firstError);
                if (!r.firstRuleTaint.empty())
                    rd.set("firstRuleTaint", r.firstRuleTaint);
                reqs.push(rd);
            }
            cd.set("requests", reqs);
            claims.push(cd);
        }
        nd.set("claims", claims);
        nodes.push(nd);
    }
    root.set("nodes", nodes);
    return root;
}

} // namespace drasim::scheduler
