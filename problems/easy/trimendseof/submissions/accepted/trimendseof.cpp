#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(const std::string &s) {
    return s.substr(1, s.size() - 2);
}

int main() {
    std::string s;
    while (std::getline(std::cin, s)) std::cout << solve(s) << "\n";
}
