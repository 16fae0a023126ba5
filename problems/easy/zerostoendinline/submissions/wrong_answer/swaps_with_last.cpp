#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

// Swaps every zero with the last value not yet moved: the zeros end up at the end, but the other values lose their order.
std::string solve(std::vector<long long> a) {
    size_t end = a.size();
    for (size_t i = 0; i < end; i++)
        if (a[i] == 0) {
            while (end > i + 1 && a[end - 1] == 0) end--;
            std::swap(a[i], a[end - 1]);
            end--;
        }
    std::string out;
    for (size_t i = 0; i < a.size(); i++) out += (i ? " " : "") + std::to_string(a[i]);
    return out;
}

int main() {
    int n;
    std::cin >> n;
    std::vector<long long> a(n);
    for (auto &x : a) std::cin >> x;
    std::cout << solve(a) << "\n";
}
