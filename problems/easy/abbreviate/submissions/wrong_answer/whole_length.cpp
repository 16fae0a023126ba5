#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

// Writes the length of the whole word in the middle, not the number of letters between the ends.
std::string solve(const std::string &s) {
    if (s.size() <= 10) return s;
    return s.front() + std::to_string(s.size()) + s.back();
}

int main() {
    std::string s;
    std::getline(std::cin, s);
    std::cout << solve(s) << "\n";
}
