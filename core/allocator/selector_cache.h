// SPDX-License-Identifier: Apache-2.0
#pragma once

// Device attributes are static, so a selector's verdict for a device never changes: compile each
// expression once and remember the combined verdict of a (class selectors + request selectors)
// set per device object (DeviceInstance, never the device's name: a name may stand for another
// device in another generation or slice). The verdict is the outcome of evaluating the selectors in order and
// stopping at the first non-true one, exactly what the allocator would compute each time.

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/allocator/inventory.h"
#include "core/cel/cel.h"

namespace drasim::allocator {

enum class Verdict : uint8_t { Unknown, True, ClassFalse, RequestFalse, Error };

struct SelectorFailure
{
    bool fromClass = false;
    size_t index = 0;
    bool compile = false; ///< the expression did not compile (stored expression gone bad)
    std::string message; ///< CEL message
};

class SelectorCache
{
public:
    /// Compiles (once per distinct text). Null on failure, with the error filled in.
    std::shared_ptr<const cel::Selector> compile(const std::string& expression, cel::CompileError* error);

    /// Id of the set made of the class's selectors followed by the request's selectors.
    uint32_t setFor(const api::DeviceClass& cls, const std::vector<api::DeviceSelector>& requestSelectors);

    Verdict verdict(uint32_t set, const DeviceEntry& e)
    {
        auto& s = m_sets[set];
        if (e.instance < s.verdicts.size() && s.verdicts[e.instance] != Verdict::Unknown)
            return s.verdicts[e.instance];
        return evaluate(s, e);
    }
    /// Why the device failed with Verdict::Error.
    const SelectorFailure& failure(uint32_t set, DeviceInstance instance) const;
    /// Whether any device of the given list errors for this set (evaluates them all once; the
    /// answer is remembered until clearVerdicts()).
    bool anyError(uint32_t set, const std::vector<DeviceEntry>& devices);

    /// Slices changed: device instances may now name different devices.
    void clearVerdicts();
    /// These device objects were (re)published, perhaps with other attributes: judge them afresh.
    /// Removed devices need nothing: their verdicts are never asked for again.
    void forget(const std::vector<DeviceInstance>& instances);

    size_t setCount() const { return m_sets.size(); }

private:
    struct Set
    {
        std::string className;
        std::vector<std::shared_ptr<const cel::Selector>> classSelectors;
        std::vector<std::shared_ptr<const cel::Selector>> requestSelectors;
        std::vector<SelectorFailure> compileFailures; ///< at most one: the first bad expression
        std::vector<Verdict> verdicts; ///< by DeviceInstance
        std::unordered_map<DeviceInstance, SelectorFailure> errors;
        int anyError = -1; ///< unknown, 0, 1
    };
    Verdict evaluate(Set& s, const DeviceEntry& e);

    std::unordered_map<std::string, std::shared_ptr<const cel::Selector>> m_compiled;
    std::unordered_map<std::string, cel::CompileError> m_compileErrors;
    std::unordered_map<std::string, uint32_t> m_setIds;
    std::vector<Set> m_sets;
};

} // namespace drasim::allocator
