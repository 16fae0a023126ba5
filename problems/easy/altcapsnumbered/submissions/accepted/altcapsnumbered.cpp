#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(std::string s) {
    for (size_t i = 0; i < s.size(); i += 2) s[i] = std::toupper((unsigned char)s[i]);
    return s;
}

int main() {
    std::string first;
    std::getline(std::cin, first);
    int t = std::stoi(first);
    for (int i = 1; i <= t; i++) {
        std::string s;
        std::getline(std::cin, s);
        std::cout << "Case #" << i << ": " << solve(s) << "\n";
    }
}
