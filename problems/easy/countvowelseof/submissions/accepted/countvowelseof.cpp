#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(const std::string &s) {
    int count = 0;
    for (char c : s) if (std::string("aeiou").find(c) != std::string::npos) count++;
    return std::to_string(count);
}

int main() {
    std::string s;
    while (std::getline(std::cin, s)) std::cout << solve(s) << "\n";
}
