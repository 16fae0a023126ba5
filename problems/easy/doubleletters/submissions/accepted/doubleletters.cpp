#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(const std::string &s) {
    int count = 0;
    for (size_t i = 1; i < s.size(); i++) if (s[i] == s[i - 1]) count++;
    return std::to_string(count);
}

int main() {
    std::string s;
    std::getline(std::cin, s);
    std::cout << solve(s) << "\n";
}
