// Subtracts 32 from every character, the spaces too.
#include <iostream>
#include <string>

int main() {
    std::string s;
    std::getline(std::cin, s);
    for (char &c : s) c = (char)(c - 32);
    std::cout << s << "\n";
}
