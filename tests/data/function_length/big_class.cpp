// SPDX-License-Identifier: Apache-2.0
// Input of the architecture.class_size_scanner self-test (run with --class-lines 12
// --class-functions 4): a class of 15 lines with five member functions, three declared and two
// defined in its body, is over both limits; data members with parentheses (a function type, an
// initializer) and aliases are not functions; a small struct with one operator is within them.
#include <functional>

namespace sample {

struct Point
{
    int x = 0;
    int y = 0;
    bool operator==(const Point&) const = default;
};

class Engine
{
public:
    Engine(const Engine&) = delete;
    void run();
    int step(int n) const;
    int size() const { return m_size; }
    void reset() { m_size = 0; }

private:
    using Callback = void (*)(int);
    std::function<void(int)> m_onStep;
    int m_size = int(3);
    Callback m_callback = nullptr;
};

} // namespace sample
