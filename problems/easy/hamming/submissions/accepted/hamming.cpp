#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(const std::string &s) {
    size_t space = s.find(' ');
    std::string u = s.substr(0, space), v = s.substr(space + 1);
    int count = 0;
    for (size_t i = 0; i < u.size(); i++)
        if (u[i] != v[i]) count++;
    return std::to_string(count);
}

int main() {
    std::string s;
    std::getline(std::cin, s);
    std::cout << solve(s) << "\n";
}
