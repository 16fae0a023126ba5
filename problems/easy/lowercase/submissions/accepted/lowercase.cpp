#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(std::string s) {
    for (char &c : s) c = std::tolower((unsigned char)c);
    return s;
}

int main() {
    std::string s;
    std::getline(std::cin, s);
    std::cout << solve(s) << "\n";
}
