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
    std::string s;
    std::getline(std::cin, s);
    std::cout << solve(s) << "\n";
}
