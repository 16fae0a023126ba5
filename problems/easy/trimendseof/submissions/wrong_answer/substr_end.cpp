#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

// Passes substr the end position where it takes a length: the last letter stays.
std::string solve(const std::string &s) {
    return s.substr(1, s.size() - 1);
}

int main() {
    std::string s;
    while (std::getline(std::cin, s)) std::cout << solve(s) << "\n";
}
